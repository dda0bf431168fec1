import type { FileFormat, ForwardedMessage } from '../../../contracts/forwarding';

/**
 * What the sftp and ftps deliverers write (docs/forwarding-kinds/files.md): one file per batch,
 * named after the destination and the batch's first and last stream positions, so a batch
 * delivered again writes the same name and replaces the file instead of adding another.
 */

/** A flat value as CSV cells and InfluxDB fields carry it. */
export type FlatValue = string | number | boolean;

/**
 * The values with nested objects and arrays spread into one level, their keys joined with
 * `separator` (`phaseVoltage.l1`, `phaseVoltage_l1`); nulls are left out.
 */
export function flattenValues(values: Record<string, unknown>, separator: string): Record<string, FlatValue> {
  const flat: Record<string, FlatValue> = {};
  const visit = (value: unknown, key: string): void => {
    if (value === null || value === undefined) {
      return;
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      flat[key] = value;
      return;
    }
    if (typeof value === 'object') {
      for (const [inner, innerValue] of Object.entries(value)) {
        visit(innerValue, key === '' ? inner : `${key}${separator}${inner}`);
      }
      return;
    }
    flat[key] = String(value);
  };
  visit(values, '');
  return flat;
}

/** `gridport-<destination>-<first position>-<last position>.<json|csv>`. */
export function batchFileName(destinationHashId: string, messages: readonly ForwardedMessage[], format: FileFormat): string {
  const first = messages[0];
  const last = messages[messages.length - 1];
  if (!first || !last) {
    throw new Error('a file holds at least one message');
  }
  return `gridport-${destinationHashId}-${first.position}-${last.position}.${format === 'synaptiq' ? 'json' : 'csv'}`;
}

/** The name a file is written under before it is renamed into place: hidden, so readers that skip dot files never see half a file. */
export function partialFileName(name: string): string {
  return `.${name}.partial`;
}

/** The fixed columns of a `qos` file, before one column per flattened value. */
export const qosFixedColumns = ['position', 'messageType', 'version', 'deviceHashId', 'assetIndex', 'at', 'id'] as const;

function csvCell(value: FlatValue | null | undefined): string {
  if (value === null || value === undefined) {
    return '';
  }
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A `qos` file: RFC 4180 CSV (CRLF lines, a header), one row per message, value columns the sorted union of the batch's flattened keys. */
export function qosCsv(messages: readonly ForwardedMessage[]): string {
  const flats = messages.map((message) => flattenValues(message.values, '.'));
  const valueColumns = [...new Set(flats.flatMap((flat) => Object.keys(flat)))].sort();
  const lines = [[...qosFixedColumns, ...valueColumns].map(csvCell).join(',')];
  messages.forEach((message, index) => {
    const flat = flats[index] ?? {};
    const fixed: FlatValue[] = [
      message.position,
      message.messageType,
      message.version,
      message.device.hashId,
      message.asset?.index ?? '',
      message.at,
      message.id,
    ];
    lines.push([...fixed.map(csvCell), ...valueColumns.map((column) => csvCell(flat[column]))].join(','));
  });
  return `${lines.join('\r\n')}\r\n`;
}

/** The file's contents: `synaptiq` the messages as a JSON array, `qos` CSV. */
export function batchFileContent(messages: readonly ForwardedMessage[], format: FileFormat): Buffer {
  return Buffer.from(format === 'synaptiq' ? JSON.stringify(messages) : qosCsv(messages), 'utf8');
}

/** Rejects with `what` timed out when `promise` takes longer than `ms`; `onTimeout` drops what hangs. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`${what} took longer than ${ms / 1000} s`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** How long one file (connect, write, rename) may take. */
export const fileDeliveryTimeoutMs = 60_000;
