import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import {
  closeCodes,
  gatewayPath,
  hubLimits,
  parseEnvelope,
  retryAfterOfReason,
  type ChallengePayload,
  type EnvelopeType,
  type WelcomePayload,
} from '../../contracts/hub/protocol';
import { signChallenge, type GatewayIdentity } from './provision';

/** The client's own pace for reports: under the cloud's frame limits, leaving room for acks and keep-alives. */
const reportsPerSecond = Math.floor(hubLimits.framesPerSecond * 0.8);
const reportBurst = Math.floor(hubLimits.framesBurst * 0.8);
import { ReportStore, type DroppedReports, type StoredReport } from './report-store';

/** A cloud-to-device message as it arrives. */
export interface IncomingMessage {
  id: string;
  payload: unknown;
}

export interface GatewayClientOptions {
  /** The cloud's base URL, http(s)://host:port; the client connects to ws(s)://host:port/v1/device/connect. */
  baseUrl: string;
  /** What the gateway proves itself with (provision() or loadIdentity()). */
  identity: Pick<GatewayIdentity, 'certificatePem' | 'privateKey'> & Partial<Pick<GatewayIdentity, 'privateKeyPem'>>;
  /** Over https: the CAs to trust for the cloud's certificate, PEM (Node's own list when not given). With the key's PEM in `identity`, the gateway also proves itself by mutual TLS. */
  serverCaPems?: string[];
  /** Where reports wait on disk until acknowledged. */
  storeDirectory: string;
  version?: string;
  networkInterface?: string;
  /** Applies a message; called one message at a time, in their order; the client acknowledges it once this resolves (a message sent again is acknowledged without a second call). */
  onMessage?: (message: IncomingMessage) => Promise<void> | void;
  /** Told of errors the cloud sends (a refused report, say) and of connection trouble. */
  onError?: (error: { key: string; message: string; ids?: string[]; details?: unknown }) => void;
  /** Told of the report ids each acknowledgement from the cloud carries (they are stored for good). */
  onAcknowledged?: (ids: readonly string[]) => void;
  /** Most bytes the report store may take on disk (report-store.ts: defaultStoreBytes). */
  maxStoreBytes?: number;
  /** Told each time the connection is (re)established and authenticated. */
  onConnected?: () => void;
  /** Reconnect delays: from `minBackoffMs`, doubling to `maxBackoffMs`, with jitter. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * The gateway side of the protocol (docs/gateway-protocol.md): connects and authenticates,
 * keeps reconnecting with backoff, sends every report from the disk store until the cloud
 * acknowledges it, and hands cloud-to-device messages to `onMessage`, acknowledging each once
 * applied. The edge agent and the benchmarks build on it.
 */
export class GatewayClient {
  private socket: WebSocket | null = null;
  private store: ReportStore | null = null;
  private readonly queue = new Map<string, StoredReport>();
  private stopped = false;
  private ready = false;
  private backoff: number;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private readonly applied = new Set<string>();
  /** The message being applied; the next one waits for it. */
  private messages: Promise<void> = Promise.resolve();
  private tokens: number = reportBurst;
  private refilledAt = Date.now();
  private readonly paced = new Set<string>();
  private pumpTimer: NodeJS.Timeout | null = null;
  private readonly appliedOrder: string[] = [];
  private waiters: (() => void)[] = [];
  private connectedWaiters: (() => void)[] = [];
  /** The identifier the cloud knows this gateway by, once welcomed. */
  identifier: string | null = null;
  keepAliveSeconds: number | null = null;
  /** How often the connection was (re)established, for tests and logs. */
  connections = 0;
  /** The close code of the last connection (4003: replaced by a newer connection of the same device), for tests and logs; null before any closed. */
  lastCloseCode: number | null = null;
  /** The seconds the cloud last asked this gateway to stay away (4029, or 429 with Retry-After), for tests and logs; null when it never did. */
  throttledFor: number | null = null;
  /** No reconnect before this time (Date.now()): the cloud's Retry-After. */
  private notBefore = 0;
  private keepAliveTimer: NodeJS.Timeout | null = null;
  /** When anything last arrived on the connection (a frame, a ping, a pong). */
  private heardAt = 0;
  /** How often a silent connection was dropped by the keep-alive, for tests and logs. */
  silentDrops = 0;

  constructor(private readonly options: GatewayClientOptions) {
    this.backoff = options.minBackoffMs ?? 500;
  }

  /** Opens the disk store (reports left from before are sent first) and starts connecting. */
  async start(): Promise<void> {
    const { store, unsent } = await ReportStore.open(
      this.options.storeDirectory,
      this.options.maxStoreBytes === undefined ? {} : { maxBytes: this.options.maxStoreBytes },
    );
    this.store = store;
    for (const entry of unsent) {
      this.queue.set(entry.id, entry);
    }
    this.connect();
  }

  /** Resolves when the client is authenticated (now or at the next connection). */
  connected(): Promise<void> {
    if (this.ready) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.connectedWaiters.push(resolve));
  }

  /**
   * Stores a report on disk and sends it when connected; resolves with its id once it is on
   * disk, or once it was counted as dropped when the store is full (see `dropped`).
   */
  async report(report: unknown): Promise<string> {
    if (!this.store) {
      throw new Error('start() the client first');
    }
    const id = randomUUID();
    const entry = await this.store.append(report, id);
    if (!entry) {
      return id;
    }
    this.queue.set(entry.id, entry);
    if (this.ready) {
      this.sendReport(entry.id);
    }
    return entry.id;
  }

  /** Resolves when every report so far has been acknowledged. */
  drained(): Promise<void> {
    if (this.queue.size === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Reports the full store did not keep, since the counter was last cleared (survives restarts). */
  get dropped(): DroppedReports {
    return this.store?.dropped ?? { regular: 0, flash: 0, since: null };
  }

  /** Clears the dropped counter by the counts reported. */
  async clearDropped(counted: DroppedReports): Promise<void> {
    await this.store?.clearDropped(counted);
  }

  /** Reports waiting for acknowledgement. */
  get waiting(): number {
    return this.queue.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopKeepAlive();
    if (this.pumpTimer) {
      clearTimeout(this.pumpTimer);
    }
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
    }
    const socket = this.socket;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close(1000, 'gateway stopping');
      });
    }
  }

  /**
   * The gateway's half of the keep-alive (docs/gateway-protocol.md section 3): a websocket ping
   * every interval, and a connection from which nothing (no frame, ping or pong) arrived for two
   * intervals dropped, so that a link that died without a close (a NAT that forgot the flow, a
   * cloud node gone) is noticed and the gateway reconnects instead of waiting on it for good.
   */
  private startKeepAlive(seconds: number): void {
    this.stopKeepAlive();
    const socket = this.socket;
    if (!socket) {
      return;
    }
    const intervalMs = seconds * 1000;
    this.heardAt = Date.now();
    this.keepAliveTimer = setInterval(() => {
      if (socket !== this.socket || socket.readyState !== WebSocket.OPEN) {
        return;
      }
      if (Date.now() - this.heardAt >= 2 * intervalMs) {
        this.silentDrops += 1;
        this.options.onError?.({ key: 'connection_silent', message: `nothing arrived from the cloud for ${2 * seconds} s; reconnecting` });
        socket.terminate();
        return;
      }
      socket.ping();
    }, intervalMs);
    this.keepAliveTimer.unref();
  }

  private stopKeepAlive(): void {
    if (this.keepAliveTimer) {
      clearInterval(this.keepAliveTimer);
      this.keepAliveTimer = null;
    }
  }

  private send(type: EnvelopeType, id: string, payload: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ id, type, payload }));
    }
  }

  private connect(): void {
    if (this.stopped) {
      return;
    }
    const url = new URL(gatewayPath, this.options.baseUrl.replace(/^http/, 'ws'));
    // Also in the URL: with mutual TLS the cloud welcomes the gateway before any authenticate envelope.
    if (this.options.version) {
      url.searchParams.set('version', this.options.version);
    }
    if (this.options.networkInterface) {
      url.searchParams.set('networkInterface', this.options.networkInterface);
    }
    const { privateKeyPem, certificatePem } = this.options.identity;
    const tls =
      url.protocol === 'wss:'
        ? { ...(privateKeyPem ? { cert: certificatePem, key: privateKeyPem } : {}), ...(this.options.serverCaPems ? { ca: this.options.serverCaPems } : {}) }
        : {};
    const socket = new WebSocket(url, tls);
    this.socket = socket;
    socket.on('message', (data) => {
      this.heardAt = Date.now();
      void this.onFrame(data.toString());
    });
    socket.on('ping', () => {
      this.heardAt = Date.now();
    });
    socket.on('pong', () => {
      this.heardAt = Date.now();
    });
    // A refused upgrade: a 429 asks to come back after Retry-After (the cloud's reconnect throttle).
    socket.on('unexpected-response', (_request, response) => {
      const retryAfter = response.statusCode === 429 ? retryAfterOfReason(String(response.headers['retry-after'] ?? '')) : null;
      if (retryAfter !== null) {
        this.stayAway(retryAfter);
      }
      response.resume();
      socket.terminate();
    });
    socket.on('close', (code, reason) => {
      this.ready = false;
      this.lastCloseCode = code;
      this.stopKeepAlive();
      if (code === closeCodes.authenticationFailed) {
        this.options.onError?.({ key: 'unauthorized', message: `the cloud refused the certificate: ${reason.toString()}` });
      }
      if (code === closeCodes.reconnectThrottled) {
        this.stayAway(retryAfterOfReason(reason.toString()) ?? hubLimits.reconnectWindowMs / 1000);
      }
      this.scheduleReconnect();
    });
    socket.on('error', (error) => this.options.onError?.({ key: 'connection', message: error.message }));
  }

  /**
   * Sends a report now if the pace allows, else queues it for the pump: below the cloud's frame
   * limit (hubLimits), so a backlog after a reconnect drains steadily instead of tripping 4008.
   */
  private sendReport(id: string): void {
    this.refill();
    if (this.paced.size === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      const entry = this.queue.get(id);
      if (entry) {
        this.send('report', entry.id, entry.report);
      }
      return;
    }
    this.paced.add(id);
    this.schedulePump();
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(reportBurst, this.tokens + ((now - this.refilledAt) / 1000) * reportsPerSecond);
    this.refilledAt = now;
  }

  private schedulePump(): void {
    if (this.pumpTimer) {
      return;
    }
    this.pumpTimer = setTimeout(() => {
      this.pumpTimer = null;
      if (!this.ready) {
        this.paced.clear();
        return;
      }
      this.refill();
      for (const id of this.paced) {
        if (this.tokens < 1) {
          break;
        }
        this.paced.delete(id);
        const entry = this.queue.get(id);
        if (entry) {
          this.tokens -= 1;
          this.send('report', entry.id, entry.report);
        }
      }
      if (this.paced.size > 0) {
        this.schedulePump();
      }
    }, 50);
  }

  /** The cloud throttled this gateway's reconnects: the next attempt waits the seconds it asked, and the backoff starts from the top. */
  private stayAway(seconds: number): void {
    this.throttledFor = seconds;
    this.notBefore = Date.now() + seconds * 1000;
    this.backoff = this.options.maxBackoffMs ?? 30_000;
    this.options.onError?.({ key: 'too_many_requests', message: `the cloud refused the reconnect; retrying after ${seconds} s` });
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) {
      return;
    }
    // At least what the cloud asked (plus jitter, so throttled gateways do not return together).
    const delay = Math.max(this.backoff * (0.5 + Math.random() / 2), this.notBefore - Date.now() + Math.random() * 1000);
    this.backoff = Math.min(this.options.maxBackoffMs ?? 30_000, this.backoff * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private async onFrame(text: string): Promise<void> {
    const envelope = parseEnvelope(text);
    if (!envelope) {
      return;
    }
    switch (envelope.type) {
      case 'challenge': {
        const { nonce } = envelope.payload as ChallengePayload;
        const signature = await signChallenge(this.options.identity.privateKey, nonce);
        this.send('authenticate', `auth-${Date.now()}`, {
          certificate: this.options.identity.certificatePem,
          signature,
          ...(this.options.version ? { version: this.options.version } : {}),
          ...(this.options.networkInterface ? { networkInterface: this.options.networkInterface } : {}),
        });
        return;
      }
      case 'welcome': {
        const welcome = envelope.payload as WelcomePayload;
        this.identifier = welcome.identifier;
        this.keepAliveSeconds = welcome.keepAliveSeconds;
        this.startKeepAlive(welcome.keepAliveSeconds);
        this.ready = true;
        this.connections += 1;
        this.backoff = this.options.minBackoffMs ?? 500;
        this.tokens = reportBurst;
        for (const id of this.queue.keys()) {
          this.sendReport(id);
        }
        for (const resolve of this.connectedWaiters.splice(0)) {
          resolve();
        }
        this.options.onConnected?.();
        return;
      }
      case 'ack': {
        const ids = ((envelope.payload as { ids?: unknown }).ids ?? []) as string[];
        this.options.onAcknowledged?.(ids);
        await this.settle(ids);
        return;
      }
      case 'message': {
        // One at a time, in the order they arrive (the outbox's order), though the cloud sends a
        // window of them at once; a message sent again while it is applied waits, then is only acknowledged.
        const applied = this.messages.then(() => this.onMessage(envelope.id, envelope.payload));
        this.messages = applied.catch(() => undefined);
        await applied;
        return;
      }
      case 'error': {
        const error = envelope.payload as { key: string; message: string; ids?: string[] };
        this.options.onError?.(error);
        const ids = (error.ids ?? []).filter((id) => this.queue.has(id));
        if (error.key === 'payload_invalid') {
          // A report the cloud refused will never be stored: it was reported to onError; keeping it would resend it forever.
          await this.settle(ids);
        } else if (ids.length > 0) {
          // The cloud could not store it now: send it again in a while.
          setTimeout(() => {
            for (const id of ids) {
              if (this.ready) {
                this.sendReport(id);
              }
            }
          }, this.options.minBackoffMs ?? 500);
        }
        return;
      }
      default:
        return;
    }
  }

  /** Reports done with: acknowledged, or refused for good. */
  private async settle(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      this.queue.delete(id);
    }
    await this.store?.acknowledge(ids);
    if (this.queue.size === 0) {
      for (const resolve of this.waiters.splice(0)) {
        resolve();
      }
    }
  }

  private async onMessage(id: string, payload: unknown): Promise<void> {
    if (!this.applied.has(id)) {
      try {
        await this.options.onMessage?.({ id, payload });
      } catch (error) {
        this.options.onError?.({ key: 'message_failed', message: error instanceof Error ? error.message : String(error), ids: [id] });
        return;
      }
      this.applied.add(id);
      this.appliedOrder.push(id);
      if (this.appliedOrder.length > 10_000) {
        const oldest = this.appliedOrder.shift();
        if (oldest !== undefined) {
          this.applied.delete(oldest);
        }
      }
    }
    this.send('ack', `ack-${id}`, { ids: [id] });
  }
}
