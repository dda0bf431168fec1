import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/config';

/** An empty folder to load a configuration in (its data folder lands inside). */
export function freshDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'gridport-config-'));
}

/** The problems a configuration is refused with; fails the test when it is accepted. */
export function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env, freshDir());
  } catch (error) {
    if (error instanceof ConfigError) {
      return error.problems;
    }
    throw error;
  }
  throw new Error('the configuration was accepted');
}
