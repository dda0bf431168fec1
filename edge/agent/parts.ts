import type { DeviceCommunication } from '../../contracts/device/connection';
import type { ModbusCommand } from '../../contracts/device/commands';
import type { ReportOf } from '../../contracts/hub/reports';
import type { ControlLoopFactory } from '../control/loop';
import type { DriverFactory } from '../drivers/driver';
import { openTunnel, type OpenTunnelOptions } from '../gateway-client/tunnel';
import { ModbusLinkPool } from '../modbus/link-pool';
import type { ModbusLinks } from '../modbus/link';
import type { AgentLog } from './journal';

/** What an executeModbusCommand answers besides the command itself (the executedModbusCommand report). */
export type ModbusCommandOutcome = Omit<ReportOf<'executedModbusCommand'>['observations'], 'messageId' | 'command'>;

/**
 * The parts the agent is built from. Each is injectable, so tests run the agent against
 * in-process drivers and loops on a fast clock; the defaults are the real ones.
 */
export interface AgentParts {
  createDriver: DriverFactory;
  createControlLoop: ControlLoopFactory;
  /** The Modbus link pool of one config (closed when the config is replaced). */
  createLinks: (log: AgentLog) => ModbusLinks;
  /** Carries out one executeModbusCommand on the links; a failure is answered in `error`, not thrown. */
  executeModbusCommand: (links: ModbusLinks, device: DeviceCommunication, command: ModbusCommand) => Promise<ModbusCommandOutcome>;
  openTunnel: (options: Pick<OpenTunnelOptions, 'baseUrl' | 'identity' | 'tunnelId' | 'destination' | 'log'>) => Promise<void>;
}

export const defaultAgentParts: AgentParts = {
  createDriver: () => null,
  createControlLoop: () => null,
  createLinks: (log) => new ModbusLinkPool({ log }),
  executeModbusCommand: () => Promise.resolve({ error: 'executeModbusCommand is not built into this agent yet' }),
  openTunnel,
};
