import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './version';

/** package.json's `engines.node`: the Node.js that Gridport and every dependency run on. */
export const requiredNode: string =
  (JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node ?? '>=0';

const numbers = (version: string) =>
  version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);

/**
 * Why this Node.js cannot run Gridport, or null when it can. `required` is a lower bound such
 * as ">=20.19" (the only form package.json uses).
 */
export function nodeVersionProblem(running: string = process.version, required: string = requiredNode): string | null {
  const bound = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(required.trim());
  if (!bound?.[1]) {
    return null;
  }
  const have = numbers(running);
  const need = numbers(bound[1]);
  for (let index = 0; index < 3; index += 1) {
    const difference = (have[index] ?? 0) - (need[index] ?? 0);
    if (difference !== 0) {
      return difference > 0
        ? null
        : `Gridport needs Node.js ${bound[1]} or newer (package.json "engines"); this is Node.js ${running.replace(/^v/, '')}. Install a newer Node.js (for example the current 20 or 22 release) and run npm install again.`;
    }
  }
  return null;
}
