/**
 * executeModbusCommand (device-model.md section 3.10; api.md sections 3, 5): one Modbus request
 * the cloud asks for, sent through the link pool (so it shares the link of any asset on the
 * same endpoint), answered with an executedModbusCommand report.
 *
 * Our reading of the device communication settings, which the spec names only: slaveId absent
 * means unit 1; a list of slave ids is tried in order until one answers (a Modbus exception is
 * an answer; a timeout moves on to the next id); retries and timeout apply to each id;
 * pollDelay ms are waited before the first request and turnaroundDelay ms between ids.
 */
import type { ValidationError } from 'yup';
import { cloudToDeviceCommandSchemas, modbusCommandSchema, type ModbusCommand } from '../../contracts/device/commands';
import { deviceCommunicationSchema, type DeviceCommunication } from '../../contracts/device/connection';
import type { ExecutedModbusCommandReport } from '../../contracts/hub/reports';
import { ModbusRequestError, type ModbusLinks, type ModbusUnit } from './link';
import type { DeviceIdentification, IdentifiableUnit } from './link-pool';

/** The unit when the settings name none (mbpoll's and most devices' default). */
export const defaultCommandSlaveId = 1;

/** The standard objects of Modbus device identification (function 43/14), by object id. */
export const identificationObjectNames: Record<number, string> = {
  0: 'vendorName',
  1: 'productCode',
  2: 'majorMinorRevision',
  3: 'vendorUrl',
  4: 'productName',
  5: 'modelName',
  6: 'userApplicationName',
};

export interface CommandOptions {
  /** Waits `ms` (tests pass a clock-free one). */
  sleep?: (ms: number) => Promise<void>;
  log?: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
}

/** What an executeModbusCommand answers besides the command itself (the agent adds messageId and the command). */
export type ModbusCommandOutcome = Omit<ExecutedModbusCommandReport['observations'], 'messageId' | 'command'>;

function sleepFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function canIdentify(unit: ModbusUnit): unit is IdentifiableUnit {
  return typeof (unit as Partial<IdentifiableUnit>).readDeviceIdentification === 'function';
}

/** The identification as reported: the conformity level and each object by its standard name (others by id). */
function identificationOf(identification: DeviceIdentification): Record<string, unknown> {
  const objects: Record<string, string> = {};
  for (const [id, value] of Object.entries(identification.objects)) {
    objects[identificationObjectNames[Number(id)] ?? id] = value;
  }
  return { conformityLevel: identification.conformityLevel, objects };
}

/** Carries out one command on one unit. */
async function run(unit: ModbusUnit, command: ModbusCommand): Promise<ModbusCommandOutcome> {
  switch (command.type) {
    case 'writeCoil':
      await unit.writeCoil(command.addr, command.binary);
      return {};
    case 'writeRegister':
      await unit.writeRegister(command.addr, command.value);
      return {};
    case 'writeCoils':
      await unit.writeCoils(command.addr, command.valueAry);
      return {};
    case 'writeRegisters':
      await unit.writeRegisters(command.addr, command.valueAry);
      return {};
    case 'readHoldingRegisters':
      return { registers: await unit.readHoldingRegisters(command.addr, command.length) };
    case 'readInputRegisters':
      return { registers: await unit.readInputRegisters(command.addr, command.length) };
    case 'readCoils':
      return { bits: await unit.readCoils(command.addr, command.length) };
    case 'readDiscreteInputs':
      return { bits: await unit.readDiscreteInputs(command.addr, command.length) };
    case 'readDeviceIdentification':
      if (!canIdentify(unit)) {
        throw new ModbusRequestError('invalidRequest', 'This link cannot read the device identification');
      }
      return { identification: identificationOf(await unit.readDeviceIdentification(command.deviceIdCode, command.objectId)) };
    default:
      throw new ModbusRequestError('invalidRequest', `Unknown Modbus command ${String((command as { type?: unknown }).type)}`);
  }
}

/** The error text of a failed request: its outcome, the unit's exception code when it sent one, and the message. */
function errorText(error: unknown, slaveId: number): string {
  if (error instanceof ModbusRequestError) {
    const code = error.exceptionCode === undefined ? '' : ` (exception ${error.exceptionCode})`;
    return `${error.failure}${code} from unit ${slaveId}: ${error.message}`;
  }
  return `unit ${slaveId}: ${error instanceof Error ? error.message : String(error)}`;
}

/** The command of a message as it was sent, for the report's echo; {} when it has none. */
export function commandEcho(message: unknown): Record<string, unknown> {
  const command = typeof message === 'object' && message !== null ? (message as Record<string, unknown>).command : undefined;
  return typeof command === 'object' && command !== null && !Array.isArray(command) ? (command as Record<string, unknown>) : {};
}

function invalid(error: unknown): ModbusCommandOutcome {
  const errors = (error as Partial<ValidationError>).errors ?? [String(error)];
  return { error: `invalid command: ${errors.join('; ')}` };
}

/**
 * Carries out one Modbus command on the unit(s) of the device communication settings (see the
 * top of this file) and gives what the unit answered (registers, bits or identification) or
 * the error text. Never throws: invalid settings or a failed request give `error`. The
 * signature of AgentParts.executeModbusCommand (edge/agent/parts.ts).
 */
export async function executeModbusCommand(
  links: ModbusLinks,
  device: DeviceCommunication,
  command: ModbusCommand,
  options: CommandOptions = {},
): Promise<ModbusCommandOutcome> {
  // Checked again (and defaults filled in) so that a caller that skipped the schema gets an answer, not a wrong request.
  let settings: DeviceCommunication;
  let request: ModbusCommand;
  try {
    settings = deviceCommunicationSchema.validateSync(device, { abortEarly: false });
    request = modbusCommandSchema.validateSync(command, { abortEarly: false });
  } catch (error) {
    return invalid(error);
  }
  const slaveIds: number[] = Array.isArray(settings.slaveId) ? settings.slaveId : [settings.slaveId ?? defaultCommandSlaveId];
  const sleep = options.sleep ?? sleepFor;
  if (settings.pollDelay > 0) {
    await sleep(settings.pollDelay);
  }
  let lastError = 'no slave id to try';
  for (const [position, slaveId] of slaveIds.entries()) {
    if (position > 0 && settings.turnaroundDelay > 0) {
      await sleep(settings.turnaroundDelay);
    }
    const unit = links.unit(settings.communication, slaveId, { timeoutMs: settings.timeout, retries: settings.retries });
    try {
      const answer = await run(unit, request);
      if (settings.debugEnable) {
        options.log?.('info', `executeModbusCommand ${String(request.type)} answered by unit ${slaveId}`, { answer });
      }
      return answer;
    } catch (error) {
      lastError = errorText(error, slaveId);
      options.log?.('warn', `executeModbusCommand ${String(request.type)} failed`, { error: lastError });
      // Only a unit that did not answer sends us on to the next id; anything else is the answer.
      const silent = error instanceof ModbusRequestError && (error.failure === 'timeout' || error.failure === 'connectionError');
      if (!silent) {
        break;
      }
    }
  }
  return { error: lastError };
}

/**
 * The executedModbusCommand report of an executeModbusCommand message (validated here): the
 * command as carried out (defaults filled in) and the outcome. Never throws.
 */
export async function executedModbusCommandReport(
  links: ModbusLinks,
  message: unknown,
  messageId: string | undefined,
  at: Date,
  options: CommandOptions = {},
): Promise<ExecutedModbusCommandReport> {
  const report = (command: Record<string, unknown>, outcome: ModbusCommandOutcome): ExecutedModbusCommandReport => ({
    type: 'executedModbusCommand',
    at: at.toISOString(),
    observations: { ...(messageId === undefined ? {} : { messageId }), command, ...outcome },
  });
  let checked: { device: DeviceCommunication; command: ModbusCommand };
  try {
    checked = cloudToDeviceCommandSchemas.executeModbusCommand.validateSync(message, { abortEarly: false }) as {
      device: DeviceCommunication;
      command: ModbusCommand;
    };
  } catch (error) {
    return report(commandEcho(message), invalid(error));
  }
  return report({ ...(checked.command as Record<string, unknown>) }, await executeModbusCommand(links, checked.device, checked.command, options));
}
