import { nodeVersionProblem, requiredNode } from './node-version';

describe('the Node.js version check', () => {
  it('accepts the version package.json asks for and newer ones', () => {
    expect(requiredNode).toBe('>=20.19');
    expect(nodeVersionProblem('v20.19.0')).toBeNull();
    expect(nodeVersionProblem('v20.20.2')).toBeNull();
    expect(nodeVersionProblem('v22.1.0')).toBeNull();
    expect(nodeVersionProblem(process.version)).toBeNull();
  });

  it('refuses an older one, saying what is needed', () => {
    expect(nodeVersionProblem('v20.18.3')).toBe(
      'Gridport needs Node.js 20.19 or newer (package.json "engines"); this is Node.js 20.18.3. Install a newer Node.js (for example the current 20 or 22 release) and run npm install again.',
    );
    expect(nodeVersionProblem('v18.20.0', '>=20.19.1')).toMatch(/^Gridport needs Node\.js 20\.19\.1 or newer/);
  });
});
