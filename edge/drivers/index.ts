/**
 * The driver of each asset type (DESIGN.md: edge/drivers/ one per asset type family). Types
 * without a driver give null, and the agent reports them as unsupported. A driver family adds
 * its types to `driverFactories`.
 */
import type { AssetType } from '../../contracts/device/asset-types';
import type { DriverFactory } from './driver';
import { createDemoDriver } from './demo/drivers';
import { demoAssetTypes } from './demo/register-maps';
import { createEastronDriver } from './eastron/driver';
import { createSunspecDriver } from './sunspec/driver';

export const driverFactories: Partial<Record<AssetType, DriverFactory>> = {
  ...Object.fromEntries(
    demoAssetTypes.map((type): [AssetType, DriverFactory] => [type, (index, config, context) => createDemoDriver(index, config, type, context)]),
  ),
  'sunspec-series100': createSunspecDriver,
  'sunspec-series700': createSunspecDriver,
  eastron: createEastronDriver,
};

export const createDriver: DriverFactory = (index, config, context) => {
  const factory = driverFactories[config.type as AssetType];
  return factory === undefined ? null : factory(index, config, context);
};
