import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import { GridportError } from '../../../contracts/errors';
import { checkAddress, guardedLookup, type AddressPolicy } from './address-guard';

/**
 * The HTTP client of the http, grafana-loki and influxdb deliverers: one undici Agent whose
 * sockets resolve names through the address guard (`guardedLookup`), with IP literals checked
 * before the request, since a socket given an address never calls its lookup. An Agent never
 * follows redirects, so a 3xx cannot lead a delivery to another host.
 */
export interface HttpClientOptions {
  policy: AddressPolicy;
  /** Connect, answer and whole-request limit. */
  timeoutMs: number;
  /** A PEM CA the server's certificate must chain to (instead of the system's CAs). */
  tlsCaCertificate?: string;
}

export interface HttpSend {
  url: URL;
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string;
  /** What the destination is called in error messages ("HTTP destination", "Loki"). */
  what: string;
  /** Quote the start of an error answer's body in the error (servers known not to echo credentials). */
  quoteErrorBody?: boolean;
}

const quotedBodyLength = 300;

/** The URL as shown in errors: no credentials, no query (either may hold a secret). */
export function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The GridportError of the address guard when it is `error` or its cause (undici may wrap a socket's error). */
export function addressRefusal(error: unknown): GridportError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof GridportError) {
      return current;
    }
    current = errorLike(current)?.cause;
  }
  return null;
}

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}

/** Errors are read by shape: an abort's DOMException may come from another realm, where `instanceof Error` fails. */
function errorLike(error: unknown): ErrorLike | null {
  return typeof error === 'object' && error !== null ? (error as ErrorLike) : null;
}

function describeError(error: unknown, timeoutMs: number): string {
  const found = errorLike(error);
  if (!found || typeof found.message !== 'string') {
    return String(error);
  }
  const name = String(found.name ?? '');
  if (name === 'TimeoutError' || name === 'AbortError' || /timeout/i.test(name)) {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = typeof found.code === 'string' && !found.message.includes(found.code) ? ` (${found.code})` : '';
  const causeMessage = errorLike(found.cause)?.message;
  const cause = typeof causeMessage === 'string' && causeMessage !== found.message ? ` (${causeMessage})` : '';
  return `${found.message}${code}${cause}`;
}

/**
 * Nanoseconds since the epoch of an ISO 8601 time, as a decimal string (Loki, InfluxDB): the
 * digits past milliseconds are kept, which a Date would drop.
 */
export function epochNanoseconds(iso: string): string {
  const millis = Date.parse(iso);
  if (Number.isNaN(millis)) {
    throw new Error(`not a time: ${iso}`);
  }
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const subMillis = BigInt((fraction.slice(3) + '000000').slice(0, 6));
  return (BigInt(millis) * 1_000_000n + subMillis).toString();
}

export class GuardedHttpClient {
  private agent: Agent | null = null;

  constructor(private readonly options: HttpClientOptions) {}

  private dispatcher(): Agent {
    if (!this.agent) {
      const { policy, timeoutMs, tlsCaCertificate } = this.options;
      this.agent = new Agent({
        connect: { lookup: guardedLookup(policy), timeout: timeoutMs, ...(tlsCaCertificate ? { ca: tlsCaCertificate } : {}) },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    }
    return this.agent;
  }

  /** Sends one request; resolves on a 2xx answer, rejects with what failed otherwise and drops the connections. */
  async send(send: HttpSend): Promise<void> {
    const { url, what } = send;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (ipaddr.isValid(host)) {
      checkAddress(url.hostname, host, this.options.policy);
    }
    const headers = { ...send.headers };
    const target = new URL(url);
    if (target.username !== '' || target.password !== '') {
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
        const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
        headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      }
      target.username = '';
      target.password = '';
    }
    let failure: string;
    try {
      const answer = await request(target, {
        method: send.method,
        headers,
        body: send.body,
        dispatcher: this.dispatcher(),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const text = await answer.body.text();
      if (answer.statusCode >= 200 && answer.statusCode < 300) {
        return;
      }
      failure = `${what} ${shownUrl(url)} answered ${answer.statusCode}`;
      if (answer.statusCode >= 300 && answer.statusCode < 400) {
        failure += ' (redirects are not followed: set the URL it redirects to)';
      } else if (send.quoteErrorBody && text.trim() !== '') {
        const quoted = text.trim().replace(/\s+/g, ' ');
        failure += `: ${quoted.length > quotedBodyLength ? `${quoted.slice(0, quotedBodyLength)}…` : quoted}`;
      }
    } catch (error) {
      await this.close();
      const refusal = addressRefusal(error);
      if (refusal) {
        throw refusal;
      }
      throw new Error(`${what} ${shownUrl(url)} failed: ${describeError(error, this.options.timeoutMs)}`);
    }
    await this.close();
    throw new Error(failure);
  }

  /** Drops every connection; the next `send` opens new ones. Never throws. */
  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = null;
    if (agent) {
      await agent.destroy().catch(() => undefined);
    }
  }
}
