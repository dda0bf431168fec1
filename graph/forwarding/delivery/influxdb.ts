import { forwardingLimits, type ForwardedMessage } from '../../../contracts/forwarding';
import type { DelivererFactory } from './deliverer';
import { flattenValues, type FlatValue } from './files';
import { epochNanoseconds, GuardedHttpClient } from './http-client';

// Line protocol escaping (InfluxDB's "Line protocol" reference): measurements escape commas and
// spaces; tag keys, tag values and field keys also equals signs; string fields quotes and backslashes.
const measurementName = (text: string): string => text.replace(/[\\, ]/g, (match) => `\\${match}`);
const keyOrTag = (text: string): string => text.replace(/[\\,= ]/g, (match) => `\\${match}`);
const stringField = (text: string): string => `"${text.replace(/[\\"]/g, (match) => `\\${match}`).replace(/\r?\n/g, ' ')}"`;

function fieldValue(value: FlatValue): string {
  if (typeof value === 'number') {
    // Always a float (no `i`), so a value that is 3 in one report and 3.5 in the next keeps one field type.
    return String(value);
  }
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false';
  }
  return stringField(value);
}

/**
 * One message as a line: measurement the message type, tags `device` (hash id) and `asset`
 * (index, for an asset's report), fields the flattened values (`phaseVoltage_l1`) plus `id`,
 * `position` (strings) and `version` (integer), time the report's in nanoseconds.
 */
export function influxLine(message: ForwardedMessage): string {
  const tags = [`device=${keyOrTag(message.device.hashId)}`];
  if (message.asset) {
    tags.push(`asset=${message.asset.index}`);
  }
  const fields = Object.entries(flattenValues(message.values, '_'))
    .filter(([key]) => key !== 'id' && key !== 'position' && key !== 'version')
    .map(([key, value]) => `${keyOrTag(key)}=${fieldValue(value)}`);
  fields.push(`id=${stringField(message.id)}`, `position=${stringField(message.position)}`, `version=${message.version}i`);
  return `${measurementName(message.messageType)},${tags.join(',')} ${fields.join(',')} ${epochNanoseconds(message.at)}`;
}

/**
 * influxdb (docs/forwarding-kinds/influxdb.md): each batch is one write of line protocol, to
 * 1.x's /write (database, retention policy, basic auth) or 2.x's /api/v2/write (organization,
 * bucket, token); an https server's certificate must chain to `tlsCaCertificate` when given.
 * A point written again with the same measurement, tags and time replaces its fields, so a batch
 * delivered twice leaves the same points.
 */
export const influxdbDeliverer: DelivererFactory<'influxdb'> = (settings, context) => {
  const client = new GuardedHttpClient({
    policy: context.policy,
    timeoutMs: forwardingLimits.httpTimeoutDefaultMs,
    tlsCaCertificate: settings.tlsCaCertificate,
  });
  const base = settings.url.endsWith('/') ? settings.url : `${settings.url}/`;
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  let url: URL;
  if (settings.apiVersion === 2) {
    url = new URL('api/v2/write', base);
    url.searchParams.set('org', settings.organization ?? '');
    url.searchParams.set('bucket', settings.database);
    if (settings.token) {
      headers.authorization = `Token ${settings.token}`;
    }
  } else {
    url = new URL('write', base);
    url.searchParams.set('db', settings.database);
    if (settings.retentionPolicy) {
      url.searchParams.set('rp', settings.retentionPolicy);
    }
    if (settings.username) {
      headers.authorization = `Basic ${Buffer.from(`${settings.username}:${settings.password ?? ''}`).toString('base64')}`;
    }
  }
  url.searchParams.set('precision', 'ns');
  return {
    async deliver(messages) {
      if (messages.length === 0) {
        return;
      }
      const body = `${messages.map(influxLine).join('\n')}\n`;
      await client.send({ url, method: 'POST', headers, body, what: 'InfluxDB', quoteErrorBody: true });
    },
    close: () => client.close(),
  };
};
