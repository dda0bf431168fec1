import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The folder holding package.json, from source (server/) and compiled (dist/server/) alike. */
export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`no package.json above ${__dirname}`);
    }
    dir = parent;
  }
  return dir;
}

export const version: string = (JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
