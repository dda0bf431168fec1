/**
 * The driver of each asset type (DESIGN.md: edge/drivers/ one per asset type family). Types
 * without a driver give null, and the agent reports them as unsupported.
 */
import type { DriverFactory } from './driver';
import { createDemoDriver } from './demo/drivers';
import { isDemoAssetType } from './demo/register-maps';

export const createDriver: DriverFactory = (index, config, context) => {
  if (isDemoAssetType(config.type)) {
    return createDemoDriver(index, config, config.type, context);
  }
  return null;
};
