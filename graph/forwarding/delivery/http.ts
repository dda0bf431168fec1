import type { DelivererFactory } from './deliverer';
import { GuardedHttpClient } from './http-client';

/**
 * http (docs/forwarding-kinds/http.md): each batch is one request to the URL, the messages as a
 * JSON array, with the settings' headers. A 2xx answer delivers the batch; anything else,
 * redirects included, fails it and it is sent again later.
 */
export const httpDeliverer: DelivererFactory<'http'> = (settings, context) => {
  const client = new GuardedHttpClient({ policy: context.policy, timeoutMs: settings.timeoutMs, tlsCaCertificate: settings.tlsCaCertificate });
  const url = new URL(settings.url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const given = new Set<string>();
  for (const { name, value } of settings.headers) {
    const key = name.toLowerCase();
    // A header named twice is sent once with both values, as HTTP allows.
    headers[key] = given.has(key) ? `${headers[key]}, ${value}` : value;
    given.add(key);
  }
  return {
    async deliver(messages) {
      if (messages.length === 0) {
        return;
      }
      await client.send({ url, method: settings.method, headers, body: JSON.stringify(messages), what: 'HTTP destination' });
    },
    close: () => client.close(),
  };
};
