import { forwardingLimits, type ForwardedMessage } from '../../../contracts/forwarding';
import type { DelivererFactory } from './deliverer';
import { epochNanoseconds, GuardedHttpClient } from './http-client';

/** The labels of a message's stream: few values each (message types, devices), as Loki wants. */
export function lokiLabels(message: ForwardedMessage): Record<string, string> {
  return { source: 'gridport', message_type: message.messageType, device: message.device.hashId };
}

/** Loki's push body (POST /loki/api/v1/push, JSON): one stream per message type and device, lines in stream order. */
export function lokiPushBody(messages: readonly ForwardedMessage[]): { streams: { stream: Record<string, string>; values: [string, string][] }[] } {
  const streams = new Map<string, { stream: Record<string, string>; values: [string, string][] }>();
  for (const message of messages) {
    const key = `${message.messageType}\n${message.device.hashId}`;
    let entry = streams.get(key);
    if (!entry) {
      entry = { stream: lokiLabels(message), values: [] };
      streams.set(key, entry);
    }
    entry.values.push([epochNanoseconds(message.at), JSON.stringify(message)]);
  }
  return { streams: [...streams.values()] };
}

/**
 * grafana-loki (docs/forwarding-kinds/grafana-loki.md): each batch is one push of its messages,
 * each line a message's JSON at the report's time; an https Loki's certificate must chain to
 * `tlsCaCertificate` when given. Loki drops a line pushed again with the same labels, time and
 * text, so a batch delivered twice is kept once.
 */
export const grafanaLokiDeliverer: DelivererFactory<'grafana-loki'> = (settings, context) => {
  const client = new GuardedHttpClient({
    policy: context.policy,
    timeoutMs: forwardingLimits.httpTimeoutDefaultMs,
    tlsCaCertificate: settings.tlsCaCertificate,
  });
  // The base URL, or the push URL itself when that is what was pasted.
  const url = /\/loki\/api\/v1\/push\/?$/.test(new URL(settings.url).pathname)
    ? new URL(settings.url)
    : new URL('loki/api/v1/push', settings.url.endsWith('/') ? settings.url : `${settings.url}/`);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.tenantId) {
    headers['x-scope-orgid'] = settings.tenantId;
  }
  if (settings.username) {
    headers.authorization = `Basic ${Buffer.from(`${settings.username}:${settings.password ?? ''}`).toString('base64')}`;
  }
  return {
    async deliver(messages) {
      if (messages.length === 0) {
        return;
      }
      await client.send({ url, method: 'POST', headers, body: JSON.stringify(lokiPushBody(messages)), what: 'Loki', quoteErrorBody: true });
    },
    close: () => client.close(),
  };
};
