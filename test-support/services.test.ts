import { programPasses } from './services';

describe('the check for a test peer', () => {
  it('counts a program that answers its check with exit code 0', () => {
    expect(programPasses(process.execPath, ['-e', 'process.exit(0)'])).toBe(true);
  });

  it('does not count a program that starts but fails its check (python3 without the module asked for)', () => {
    expect(programPasses(process.execPath, ['-e', "require('a-module-nobody-installed')"])).toBe(false);
  });

  it('does not count a program that is not installed', () => {
    expect(programPasses('gridport-no-such-program', ['-V'])).toBe(false);
  });
});
