import { execFile } from 'node:child_process';

/**
 * How the gateway's own tools are run: on a gateway the agent runs them directly; a test runs
 * them inside a network namespace (`ip netns exec <name>`) and points nmcli at a NetworkManager
 * on its own D-Bus system bus (`DBUS_SYSTEM_BUS_ADDRESS`).
 */
export interface HostCommandOptions {
  /** Put before every command, e.g. `['ip', 'netns', 'exec', 'gw']`; none on a gateway. */
  prefix?: readonly string[];
  /** Extra environment of every command. */
  env?: Readonly<Record<string, string>>;
}

/** A host command that exited with an error: its argv and what it wrote to standard error. */
export class HostCommandError extends Error {
  constructor(
    readonly argv: readonly string[],
    readonly stderr: string,
    cause: string,
  ) {
    super(`${argv.join(' ')}: ${stderr.trim() || cause}`);
    this.name = 'HostCommandError';
  }
}

/** Runs one host command and answers its standard output; throws HostCommandError when it fails or outlives `timeoutMs`. */
export function runHostCommand(argv: readonly string[], options: HostCommandOptions = {}, timeoutMs = 60_000): Promise<string> {
  const full = [...(options.prefix ?? []), ...argv];
  const [file, ...args] = full;
  if (file === undefined) {
    return Promise.reject(new Error('no command to run'));
  }
  return new Promise((resolve, reject) => {
    execFile(file, args, { env: { ...process.env, ...options.env }, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        reject(new HostCommandError(argv, String(stderr), error.message));
        return;
      }
      resolve(String(stdout));
    });
  });
}
