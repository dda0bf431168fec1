/**
 * The register maps built in (maps/families/, one file per vendor, each with its source in its
 * header), checked by the schema when this module loads: a map that fails its check stops the
 * agent at start with the map and point named, never at a poll.
 */
import type { AssetType } from '../../../contracts/device/asset-types';
import { ablEmhMap } from './families/abl';
import { alfenNg9xxMap } from './families/alfen';
import { eastronSdm630Map } from './families/eastron';
import { huaweiEssMap, huaweiInverterMap } from './families/huawei';
import { janitzaUmgMap } from './families/janitza';
import { smaSunnyIslandMap } from './families/sma';
import { socomecCountisMap } from './families/socomec';
import { sungrowStringInverterMap } from './families/sungrow';
import { testAssetMap, testModbusInverterMap } from './families/test-types';
import { waveshareRelayMap } from './families/waveshare';
import { parseRegisterMap, type RegisterMap, type RegisterMapInput } from './schema';

const sources: readonly RegisterMapInput[] = [
  eastronSdm630Map,
  janitzaUmgMap,
  socomecCountisMap,
  huaweiInverterMap,
  huaweiEssMap,
  sungrowStringInverterMap,
  smaSunnyIslandMap,
  alfenNg9xxMap,
  ablEmhMap,
  waveshareRelayMap,
  testModbusInverterMap,
  testAssetMap,
];

/** The built-in maps by asset type. */
export const builtInMaps: ReadonlyMap<AssetType, RegisterMap> = new Map(
  sources.map((input): [AssetType, RegisterMap] => {
    const map = parseRegisterMap(input, `built-in map ${input.type}`);
    return [map.type, map];
  }),
);

/** The built-in map of `type`; throws for a type without one (a programming error). */
export function builtInMap(type: AssetType): RegisterMap {
  const map = builtInMaps.get(type);
  if (map === undefined) {
    throw new RangeError(`no built-in register map for ${type}`);
  }
  return map;
}
