/**
 * The browse-style commands (api.md section 3: browse, getProperties, getStatus, read, write)
 * of executeOPCXMLDACommand and executeVestasAPCommand (device-model.md section 3.10), carried
 * out with the OPC XML-DA client and answered with the items of the executed report
 * (contracts/hub/reports.ts: name, value as text, quality). How each command fills the items:
 *
 * - getStatus: one item per field of the server status (serverState, startTime, productVersion,
 *   statusInfo, vendorInfo, supportedLocaleIDs, supportedInterfaceVersions);
 * - browse: one item per child element, named by its item name, valued `branch`, `item` or
 *   `item with children`;
 * - getProperties: one item per property, named `<item>#<property>` (`Park/P#engineeringUnits`);
 * - read and write: one item per item, its value and quality (write: the value the server holds
 *   after the write).
 *
 * An item the server refuses stays in the list with a null value and its OPC error as quality,
 * and the command's `error` names each refused item; a request that fails as a whole gives no
 * items and `error` as `<outcome>: <reason>` (timeout, connectionError, responseError,
 * invalidRequest), the outcome counters of device-model.md section 3.9.
 */
import type { ValidationError } from 'yup';
import { assetDefaults, type AssetConfig } from '../../contracts/device/assets';
import { browseCommandSchema, cloudToDeviceCommandSchemas, type BrowseCommand } from '../../contracts/device/commands';
import type { ReportOf } from '../../contracts/hub/reports';
import { OpcRequestError, OpcXmlDaClient, type ItemValue, type OpcItemError, type WriteValue } from './client';
import { commandEcho } from '../modbus/command';

/** The most items a report carries (contracts/hub/reports.ts). */
export const maxReportedItems = 1000;
/** Ours: the timeout of an executeOPCXMLDACommand, which carries none; the spec's Vestas default (4 s, device-model.md section 9). */
export const opcCommandTimeoutMs = 4000;
const maxErrorText = 2000;

export type BrowseItem = { name: string; value: string | null; quality?: string };
export interface BrowseCommandOutcome {
  items?: BrowseItem[];
  error?: string;
}

export interface BrowseCommandTimeouts {
  /** ms for browse, getProperties, getStatus and read. */
  readMs: number;
  /** ms for write. */
  writeMs: number;
}

type WriteItem = Extract<BrowseCommand, { type: 'write' }>['items'][number];

/** How a write item's value goes on the wire (XML Schema types; an integer beyond 32 bits as xsd:long). */
function writeValueOf(item: WriteItem): WriteValue {
  switch (item.valueType) {
    case 'boolean':
      return { itemName: item.name, xsdType: 'boolean', text: item.value === true ? 'true' : 'false' };
    case 'integer': {
      const value = Number(item.value);
      return { itemName: item.name, xsdType: value >= -2147483648 && value <= 2147483647 ? 'int' : 'long', text: String(value) };
    }
    case 'double':
      return { itemName: item.name, xsdType: 'double', text: String(item.value) };
    default:
      return { itemName: item.name, xsdType: 'string', text: String(item.value) };
  }
}

function refusal(name: string, error: OpcItemError): string {
  return `${error.resultId} on ${name}${error.text ? `: ${error.text}` : ''}`;
}

function itemsOf(values: readonly ItemValue[]): { items: BrowseItem[]; refused: string[] } {
  const items: BrowseItem[] = [];
  const refused: string[] = [];
  for (const value of values) {
    if (value.error !== null) {
      refused.push(refusal(value.itemName, value.error));
      items.push({ name: value.itemName, value: null, quality: value.error.resultId });
    } else {
      items.push({ name: value.itemName, value: value.value?.text ?? null, quality: value.quality });
    }
  }
  return { items, refused };
}

function outcome(items: BrowseItem[], problems: string[]): BrowseCommandOutcome {
  const kept = items.slice(0, maxReportedItems);
  if (items.length > maxReportedItems) {
    problems.push(`${items.length - maxReportedItems} more items than a report holds (${maxReportedItems}) were left out`);
  }
  const error = problems.join('; ').slice(0, maxErrorText);
  return error === '' ? { items: kept } : { items: kept, error };
}

async function run(client: OpcXmlDaClient, command: BrowseCommand): Promise<BrowseCommandOutcome> {
  switch (command.type) {
    case 'getStatus': {
      const status = await client.getStatus();
      const fields: [string, string | null][] = [
        ['serverState', status.serverState],
        ['startTime', status.startTime],
        ['productVersion', status.productVersion],
        ['statusInfo', status.statusInfo],
        ['vendorInfo', status.vendorInfo],
        ['supportedLocaleIDs', status.supportedLocaleIds.join(',')],
        ['supportedInterfaceVersions', status.supportedInterfaceVersions.join(',')],
      ];
      return outcome(
        fields.map(([name, value]) => ({ name, value })),
        [],
      );
    }
    case 'browse': {
      const { elements, more } = await client.browse(command.itemName);
      const items = elements.map((element) => ({
        name: element.itemName,
        value: element.isItem ? (element.hasChildren ? 'item with children' : 'item') : 'branch',
      }));
      return outcome(items, more ? [`the server has more elements under '${command.itemName}' than a report holds (${maxReportedItems})`] : []);
    }
    case 'getProperties': {
      const properties = await client.getProperties(command.names);
      const refused: string[] = [];
      const items = properties.map((property): BrowseItem => {
        const name = property.name === '' ? property.itemName : `${property.itemName}#${property.name}`;
        if (property.error !== null) {
          refused.push(refusal(name, property.error));
          return { name, value: null, quality: property.error.resultId };
        }
        return { name, value: property.value?.text ?? null };
      });
      return outcome(items, refused);
    }
    case 'read': {
      const { items, refused } = itemsOf(await client.read(command.names));
      return outcome(items, refused);
    }
    case 'write': {
      const { items, refused } = itemsOf(await client.write(command.items.map(writeValueOf)));
      return outcome(items, refused);
    }
    default:
      throw new OpcRequestError('invalidRequest', `Unknown browse-style command ${String((command as { type?: unknown }).type)}`);
  }
}

/** Carries out one browse-style command on the server at `url`. Never throws: a failure is answered in `error`. */
export async function executeBrowseCommand(url: string, command: BrowseCommand, timeouts: BrowseCommandTimeouts): Promise<BrowseCommandOutcome> {
  let request: BrowseCommand;
  try {
    request = browseCommandSchema.validateSync(command, { abortEarly: false }) as BrowseCommand;
  } catch (error) {
    return invalid(error);
  }
  const timeoutMs = request.type === 'write' ? timeouts.writeMs : timeouts.readMs;
  const client = new OpcXmlDaClient({ url, timeoutMs, maxBrowseElements: maxReportedItems });
  try {
    return await run(client, request);
  } catch (error) {
    if (error instanceof OpcRequestError) {
      return { error: `${error.failure}: ${error.message}`.slice(0, maxErrorText) };
    }
    return { error: `responseError: ${error instanceof Error ? error.message : String(error)}`.slice(0, maxErrorText) };
  }
}

function invalid(error: unknown): BrowseCommandOutcome {
  const errors = (error as Partial<ValidationError>).errors ?? [String(error)];
  return { error: `invalidRequest: invalid command: ${errors.join('; ')}`.slice(0, maxErrorText) };
}

function observations(messageId: string | undefined, command: Record<string, unknown>, result: BrowseCommandOutcome) {
  return { ...(messageId === undefined ? {} : { messageId }), command, ...result };
}

/** The executedOPCXMLDACommand report of an executeOPCXMLDACommand message (validated here). Never throws. */
export async function executedOPCXMLDACommandReport(
  message: unknown,
  messageId: string | undefined,
  at: Date,
  timeoutMs = opcCommandTimeoutMs,
): Promise<ReportOf<'executedOPCXMLDACommand'>> {
  const report = (command: Record<string, unknown>, result: BrowseCommandOutcome): ReportOf<'executedOPCXMLDACommand'> => ({
    type: 'executedOPCXMLDACommand',
    at: at.toISOString(),
    observations: observations(messageId, command, result),
  });
  let checked: { connection: { url: string }; command: BrowseCommand };
  try {
    checked = cloudToDeviceCommandSchemas.executeOPCXMLDACommand.validateSync(message, { abortEarly: false }) as typeof checked;
  } catch (error) {
    return report(commandEcho(message), invalid(error));
  }
  const result = await executeBrowseCommand(checked.connection.url, checked.command, { readMs: timeoutMs, writeMs: timeoutMs });
  return report({ ...(checked.command as Record<string, unknown>) }, result);
}

/** The Vestas timeouts of an asset, ms: its readTimeout and writeTimeout (s, default 4; device-model.md section 9). */
export function vestasTimeouts(asset: AssetConfig): BrowseCommandTimeouts {
  const seconds = (value: unknown) => (typeof value === 'number' && value > 0 ? value : assetDefaults.vestasTimeout);
  const fields = asset as { readTimeout?: unknown; writeTimeout?: unknown };
  return { readMs: seconds(fields.readTimeout) * 1000, writeMs: seconds(fields.writeTimeout) * 1000 };
}

/**
 * The executedVestasAPCommand report of an executeVestasAPCommand message on the asset at
 * `url` (the caller has found the asset and its url connection). Never throws.
 */
export async function executedVestasAPCommandReport(
  assetIndex: number,
  asset: AssetConfig,
  url: string,
  command: BrowseCommand,
  messageId: string | undefined,
  at: Date,
): Promise<ReportOf<'executedVestasAPCommand'>> {
  const result = await executeBrowseCommand(url, command, vestasTimeouts(asset));
  return {
    type: 'executedVestasAPCommand',
    at: at.toISOString(),
    asset: assetIndex,
    observations: observations(messageId, { ...(command as Record<string, unknown>) }, result),
  };
}
