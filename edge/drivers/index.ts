/**
 * The driver of each asset type (DESIGN.md: edge/drivers/ one per asset type family). Types
 * without a driver give null, and the agent reports them as unsupported. A driver family adds
 * its types to `driverFactories`; a family that is a register map (maps/families/) is run by
 * the generic map driver, and an operator's maps (maps/load.ts) join with `driverFactoryWith`.
 */
import type { AssetType } from '../../contracts/device/asset-types';
import type { DriverFactory } from './driver';
import { createDemoDriver } from './demo/drivers';
import { demoAssetTypes } from './demo/register-maps';
import { createEastronDriver } from './eastron/driver';
import { createMapDriver } from './maps/driver';
import { builtInMaps } from './maps/registry';
import { createSagerFurnaceDriver } from './sager/furnace';
import type { RegisterMap } from './maps/schema';
import { createSunspecDriver, sunspecAssetTypes } from './sunspec/driver';

function mapFactories(maps: ReadonlyMap<AssetType, RegisterMap>): Partial<Record<AssetType, DriverFactory>> {
  return Object.fromEntries(
    [...maps].map(([type, map]): [AssetType, DriverFactory] => [type, (index, config, context) => createMapDriver(index, config, map, context)]),
  );
}

export const driverFactories: Partial<Record<AssetType, DriverFactory>> = {
  ...Object.fromEntries(
    demoAssetTypes.map((type): [AssetType, DriverFactory] => [type, (index, config, context) => createDemoDriver(index, config, type, context)]),
  ),
  ...mapFactories(builtInMaps),
  ...Object.fromEntries(Object.keys(sunspecAssetTypes).map((type): [AssetType, DriverFactory] => [type as AssetType, createSunspecDriver])),
  eastron: createEastronDriver,
  'sager-furnace': createSagerFurnaceDriver,
};

/** Whether a type has a built-in driver. */
export function hasDriver(type: AssetType): boolean {
  return driverFactories[type] !== undefined;
}

/** The factory of the built-in drivers joined by loaded maps (for types without a driver). */
export function driverFactoryWith(maps: ReadonlyMap<AssetType, RegisterMap>): DriverFactory {
  const factories = { ...mapFactories(maps), ...driverFactories };
  return (index, config, context) => {
    const factory = factories[config.type as AssetType];
    return factory === undefined ? null : factory(index, config, context);
  };
}

export const createDriver: DriverFactory = driverFactoryWith(new Map());
