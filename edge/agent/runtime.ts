import { parseDeviceConfig, type DeviceConfig } from '../../contracts/device/config';
import type { DeviceReport } from '../../contracts/hub/reports';
import type { ControlLoop } from '../control/loop';
import type { ScheduleRunner } from '../control/schedule';
import type { SetpointArbiter } from '../control/setpoints';
import type { AssetDriver } from '../drivers/driver';
import type { ModbusLinks } from '../modbus/link';
import { connectionRefusal } from './connections';
import type { AgentLog } from './journal';
import type { AgentParts } from './parts';
import { agentErrorCodes, type Reporter } from './reporter';
import type { Task } from './tasks';

/** The config a gateway runs before the cloud sent one: no assets, DHCP on eth0, a report a minute. */
export const defaultDeviceConfig: DeviceConfig = parseDeviceConfig({ network: { eth0: { type: 'dhcp' }, eth1: null }, assets: [], reportingIntervalInSec: 60 });

/** What runs one config: drivers, loops, links, the arbiter, the schedules and the work on the clock. */
export interface Runtime {
  config: DeviceConfig;
  links: ModbusLinks;
  drivers: (AssetDriver | undefined)[];
  loops: (ControlLoop | undefined)[];
  arbiter: SetpointArbiter;
  schedule: ScheduleRunner;
  tasks: Task[];
}

/** The drivers and loops of a config on its links; what this agent cannot run is answered in `unsupported` (one error report each). */
export function buildAssets(
  config: DeviceConfig,
  links: ModbusLinks,
  parts: AgentParts,
  log: AgentLog,
  reporter: Reporter,
): Pick<Runtime, 'drivers' | 'loops'> & { unsupported: DeviceReport[] } {
  const context = { links, log };
  const drivers: (AssetDriver | undefined)[] = [];
  const loops: (ControlLoop | undefined)[] = [];
  const unsupported: DeviceReport[] = [];
  config.assets.forEach((asset, index) => {
    const refused = connectionRefusal(asset);
    if (refused !== null) {
      drivers.push(undefined);
      unsupported.push(reporter.error(agentErrorCodes.unsupportedConnection, `asset ${index} (${asset.type}): ${refused}; it is not read`, { asset: index }));
      return;
    }
    const driver = parts.createDriver(index, asset, context) ?? undefined;
    drivers.push(driver);
    if (!driver) {
      unsupported.push(
        reporter.error(agentErrorCodes.unsupportedAssetType, `asset ${index} (${asset.type}): no driver for this asset type; it is not read`, { asset: index }),
      );
    }
  });
  config.activeControl.forEach((loopConfig, index) => {
    const loop = parts.createControlLoop(index, loopConfig, config) ?? undefined;
    loops.push(loop);
    if (!loop) {
      unsupported.push(
        reporter.error(agentErrorCodes.unsupportedControlLoop, `control loop ${index} (${loopConfig.type}): not built on this agent; it does not run`),
      );
    }
  });
  return { drivers, loops, unsupported };
}

/** Closes the loops, the drivers and the links of a runtime; what does not close is logged. */
export async function closeRuntime(runtime: Runtime, log: AgentLog): Promise<void> {
  for (const loop of runtime.loops) {
    await loop?.close().catch((error: unknown) => log('warn', 'a control loop did not close', { error: String(error) }));
  }
  for (const driver of runtime.drivers) {
    await driver?.close().catch((error: unknown) => log('warn', 'a driver did not close', { error: String(error) }));
  }
  await runtime.links.close().catch((error: unknown) => log('warn', 'the Modbus links did not close', { error: String(error) }));
}
