import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../server/version';

const root = projectRoot();

/** What `npm run lint` says of `code` placed at `file` (the real ESLint with the repository's config): its exit status and messages. */
function lint(file: string, code: string): { status: number | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--stdin', '--stdin-filename', file, '--format', 'json'],
    {
      cwd: root,
      input: code,
      encoding: 'utf8',
    },
  );
  const [report] = JSON.parse(result.stdout || '[{"messages":[]}]') as { messages: { ruleId: string | null; message: string }[] }[];
  const messages = (report?.messages ?? []).map((message) => `${message.message} [${message.ruleId ?? 'parser'}]`);
  return { status: result.status, output: [...messages, result.stderr].filter((line) => line !== '').join('\n') };
}

describe('the lint rule that keeps the layers (lint/layers.cjs)', () => {
  it('fails an inward-out import: graph/ importing the resolvers', () => {
    const result = lint('graph/common/probe.ts', "export { DeviceResolver } from '../../resolvers/fleet/device.resolver';\n");
    expect(result.status).toBe(1);
    expect(result.output).toContain(
      'graph/ may not import resolvers/ (layers: graph/ imports only graph/, contracts/); see docs/architecture.md [gridport/layers]',
    );
  });

  it('fails the browser console importing server code, and production code importing test tools', () => {
    expect(lint('console-ui/src/probe.ts', "export { limits } from '../../server/config';\n").output).toContain('console-ui/ may not import server/');
    expect(lint('server/probe.ts', "export { testApp } from '../test-support/app';\n").output).toContain(
      'test-support/ holds test and benchmark tools; production code in server/ may not import it',
    );
  });

  it("fails a service reaching into another domain's models", () => {
    const result = lint('graph/fleet/services/probe.ts', "export { UserModel } from '../../identity/models/user.model';\n");
    expect(result.output).toContain("graph/fleet may not reach into graph/identity's models; go through graph/identity's services");
  });

  it('passes imports that follow the layers', () => {
    const result = lint(
      'resolvers/fleet/probe.ts',
      "export { limits } from '../../contracts/limits';\nexport type { Services } from '../../graph/services';\n",
    );
    expect(result).toEqual({ status: 0, output: '' });
  });
});
