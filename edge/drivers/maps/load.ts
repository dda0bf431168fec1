/**
 * Operator-loaded register maps: every `*.json` file of a folder the agent is told of
 * (`gridport edge --register-maps <folder>`), each one map of the schema (schema.ts). A map
 * serves a type the agent has no driver for; a map for a type that already has one is refused,
 * so that a site cannot quietly replace a reviewed driver. A bad file stops the start with the
 * file and the point named (GridportError invalid_config).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AssetType } from '../../../contracts/device/asset-types';
import { GridportError } from '../../../contracts/errors';
import { parseRegisterMap, type RegisterMap } from './schema';

/** The maps of `folder`, by type; `known` says which types have a driver already. */
export async function loadRegisterMaps(folder: string, known: (type: AssetType) => boolean): Promise<Map<AssetType, RegisterMap>> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    throw new GridportError('invalid_config', [
      { path: folder, message: `the register map folder cannot be read: ${error instanceof Error ? error.message : String(error)}` },
    ]);
  }
  const maps = new Map<AssetType, RegisterMap>();
  for (const name of names) {
    const file = path.join(folder, name);
    let input: unknown;
    try {
      input = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new GridportError('invalid_config', [
        { path: file, message: `not a JSON register map: ${error instanceof Error ? error.message : String(error)}` },
      ]);
    }
    const map = parseRegisterMap(input, name);
    if (known(map.type)) {
      throw new GridportError('invalid_config', [
        { path: `${name}.type`, message: `${map.type} has a built-in driver; a loaded map serves only types without one` },
      ]);
    }
    if (maps.has(map.type)) {
      throw new GridportError('invalid_config', [{ path: `${name}.type`, message: `${map.type} has a map in another file of ${folder}` }]);
    }
    maps.set(map.type, map);
  }
  return maps;
}
