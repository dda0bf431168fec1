import type { ExecutedModbusCommandReport } from '../../contracts/hub/reports';
import { createControlLoop } from '../control';
import type { ControlLoopFactory } from '../control/loop';
import { createDriver } from '../drivers';
import type { DriverFactory } from '../drivers/driver';
import { openTunnel, type OpenTunnelOptions } from '../gateway-client/tunnel';
import { executedModbusCommandReport } from '../modbus/command';
import { ModbusLinkPool } from '../modbus/link-pool';
import type { ModbusLinks } from '../modbus/link';
import type { AgentLog } from './journal';

/**
 * The parts the agent is built from. Each is injectable, so tests run the agent against
 * in-process drivers and loops on a fast clock; the defaults are the real ones.
 */
export interface AgentParts {
  createDriver: DriverFactory;
  createControlLoop: ControlLoopFactory;
  /** The Modbus link pool of one config (closed when the config is replaced). */
  createLinks: (log: AgentLog) => ModbusLinks;
  /** Carries out one executeModbusCommand message on the links and answers its report; a failure is answered in `error`, not thrown. */
  executeModbusCommand: (links: ModbusLinks, message: unknown, messageId: string, at: Date) => Promise<ExecutedModbusCommandReport>;
  openTunnel: (options: Pick<OpenTunnelOptions, 'baseUrl' | 'identity' | 'tunnelId' | 'destination' | 'log'>) => Promise<void>;
}

export const defaultAgentParts: AgentParts = {
  createDriver,
  createControlLoop,
  createLinks: (log) => new ModbusLinkPool({ log }),
  executeModbusCommand: (links, message, messageId, at) => executedModbusCommandReport(links, message, messageId, at),
  openTunnel,
};
