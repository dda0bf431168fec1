import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import {
  closeCodes,
  gatewayPath,
  hubLimits,
  parseEnvelope,
  throttledReason,
  type AuthenticatePayload,
  type Envelope,
  type EnvelopeType,
} from '../contracts/hub/protocol';
import { implausibleReportIssues, runningConfigOf, type RunningConfig } from '../contracts/hub/reports';
import type { DeviceOutboxService, PendingMessage } from '../graph/fleet/services/device-outbox.service';
import type { DevicePresenceService, DeviceSession, OpenedSession } from '../graph/fleet/services/device-presence.service';
import type { MessageFromDeviceService } from '../graph/fleet/services/message-from-device.service';
import type { ReportIngest } from './ingest';
import { channels, type PubSub } from '../graph/common/pubsub';
import { GridportError } from '../contracts/errors';
import { infrastructureError } from '../graph/common/infrastructure-errors';
import { closeWebSockets, refuseUpgrade } from './upgrade';
import { Batcher, type BatcherSettings } from '../graph/common/batcher';
import { verifyDeviceSignature } from '../graph/fleet/services/certificate-authority';
import { ReconnectThrottle, type ReconnectThrottleSettings, type SharedRedis } from './reconnect-throttle';
import { readAgain, stopReading } from './socket-reading';

/**
 * How the handshakes' queries are gathered (device rows, outbox reads, delivery marks): a lone
 * gateway waits at most 2 ms; in a reconnect storm, two batches run at once and the next gathers
 * meanwhile, up to 500 a batch.
 */
export const handshakeBatching: BatcherSettings = { waitMs: 2, max: 500, inFlight: 2, whenFailed: 'runEachAlone' };

/** The device a certificate proves, as provisioning recorded it. */
export interface CertifiedDevice {
  deviceId: number;
  identifier: string;
  /** Checks what the device signs (verifyDeviceSignature). */
  publicKey: KeyObject;
}

/** A report that passed its schema, or the issues that refused it. */
export type ReportCheck =
  | { ok: true; report: { type: string; at: string; asset?: number | null; controller?: number | null } & Record<string, unknown> }
  | { ok: false; issues: { path: string; message: string }[] };

export interface GatewayServerOptions {
  log: Logger;
  pubsub: PubSub;
  /** The outbox: read for many devices at once (pendingMany), delivery marked in batches, acknowledged per ack. */
  outbox: Pick<DeviceOutboxService, 'pendingMany' | 'markDeliveredMany' | 'acknowledge'>;
  /** Opens and closes sessions in batches (connectedMany, disconnectedMany; graph/fleet/services/device-presence.service.ts). */
  presence: Pick<DevicePresenceService, 'connectedMany' | 'disconnectedMany' | 'retake'>;
  /** This node: sessions are tagged with its id, and open once its lease is taken. */
  node: { nodeId: string; ready: Promise<void> };
  ingest: ReportIngest;
  /** Audits the error envelopes a gateway sends (messageFromDevice). */
  messagesFromDevice: Pick<MessageFromDeviceService, 'errorEnvelope'>;
  /** The device behind a certificate: signed by the platform CA, valid now, the one provisioning recorded; null otherwise (batched by the caller). */
  verifyCertificate(pem: string): Promise<CertifiedDevice | null>;
  /** What a certificate's bytes say (no database, remembered per certificate): its fingerprint and key, before the throttle; null when it is no device certificate. */
  readCertificate(pem: string): { fingerprint: string; publicKey: KeyObject } | null;
  /** The shared report schema (contracts/hub/reports.ts). */
  validateReport(value: unknown): ReportCheck;
  /** Connections per device and window (hubLimits.reconnectsPerWindow, reconnectWindowMs unless given). */
  reconnectThrottle?: ReconnectThrottleSettings;
  /** The Redis every node shares (REDIS_URL): the throttle counts a device's attempts there, across nodes; null or absent: on this node. */
  redis?: SharedRedis | null;
}

/** Decodes base64 into bytes; null when it is not base64. */
function base64Bytes(text: unknown): Uint8Array | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
    return null;
  }
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** The client certificate of a TLS connection, PEM; null over plain HTTP or when the client sent none. */
function peerCertificatePem(request: IncomingMessage): string | null {
  const socket = request.socket;
  if (!(socket instanceof TLSSocket)) {
    return null;
  }
  const raw = socket.getPeerCertificate(false)?.raw;
  if (!raw || raw.length === 0) {
    return null;
  }
  const lines = raw.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

let sequence = 0;
/** An id for an envelope the cloud sends (acks, errors, challenges); messages use their outbox id. */
function cloudId(): string {
  sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
  return `c${Date.now().toString(36)}${sequence.toString(36)}`;
}

/** Why a connection has stopped reading from its socket: its frames are paced to the limit, or the ingest is behind. */
type Hold = 'pace' | 'ingest';

/** How often a paced connection takes the frames its bucket allows (4 frames a tick at 200 frames/s). */
const paceTickMs = 20;

/**
 * One gateway's websocket: the handshake, then reports in (validated, stored in a batch,
 * acknowledged after commit) and outbox messages out (in order, a window at a time, sent again
 * until acknowledged). A bad frame is answered with an error, logged and survived; only the
 * limits (size, a rate kept up beyond a paced backlog) and a failed handshake close the
 * connection, each with its close code. Frames beyond the rate are not refused: the connection
 * stops reading (TCP pushes back on the gateway) and takes them at the rate, in order.
 */
class GatewayConnection {
  device: CertifiedDevice | null = null;
  /** The config the device runs, as far as report indices go; null while the cloud knows none. */
  runningConfig: RunningConfig | null = null;
  /** As the session opened, for taking it back after a lost lease. */
  networkInterface: string | null = null;
  /** This connection's id, recorded on the device row while it holds the device. */
  readonly connectionId = randomUUID();
  /** The certificate's fingerprint once its attempt was counted (refunded when the server fails the handshake). */
  private fingerprint: string | null = null;
  private readonly nonce = randomBytes(32);
  private tokens: number = hubLimits.framesBurst;
  private lastRefill = Date.now();
  private readonly holds = new Set<Hold>();
  /** Frames that arrived while paced (at most what ws had read before reading stopped), taken in order at the rate. */
  private held: { data: RawData; isBinary: boolean }[] = [];
  /** Frames taken at the pace since the bucket was last half full. */
  private pacedFrames = 0;
  private paceTimer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Map<number, { sentAt: number }>();
  private lastQueuedId = 0;
  private draining = false;
  private pendingAcks: string[] = [];
  private ackTimer: NodeJS.Timeout | null = null;
  private keepAlive: NodeJS.Timeout | null = null;
  private alive = true;
  private readonly authTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: WebSocket,
    /** The TCP (or TLS) socket under the websocket: a held connection stops reading it at its handle. */
    private readonly stream: Duplex,
    private readonly hub: GatewayServer,
    private readonly options: GatewayServerOptions,
    readonly networkInterfaceHint: string | null,
    tls: { certificatePem: string | null; version: string | null },
    /** The fingerprint whose attempt the upgrade already counted (mutual TLS), so the challenge that may follow does not count it again. */
    private readonly counted: string | null = null,
  ) {
    this.fingerprint = counted;
    this.authTimer = setTimeout(() => this.close(closeCodes.authenticationTimeout, 'authenticate within the time allowed'), hubLimits.authenticateWithinMs);
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    socket.on('pong', () => {
      this.alive = true;
    });
    socket.on('close', () => this.onClose());
    socket.on('error', (error) => options.log.warn({ err: error, device: this.device?.identifier }, 'gateway socket error'));
    if (tls.certificatePem === null) {
      this.send('challenge', cloudId(), { nonce: this.nonce.toString('base64') });
      return;
    }
    // Mutual TLS: the handshake proved the key; a certificate that names a provisioned device needs no challenge.
    void this.options
      .verifyCertificate(tls.certificatePem)
      .catch(() => null)
      .then((device) => {
        if (device) {
          clearTimeout(this.authTimer);
          return this.accept(device, this.networkInterfaceHint, tls.version);
        }
        this.send('challenge', cloudId(), { nonce: this.nonce.toString('base64') });
        return undefined;
      });
  }

  send(type: EnvelopeType, id: string, payload: unknown): void {
    if (this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ id, type, payload }));
    }
  }

  private sendError(key: string, message: string, ids?: string[], details?: unknown): void {
    this.send('error', cloudId(), { ...(ids ? { ids } : {}), key, message, ...(details === undefined ? {} : { details }) });
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(code, reason);
      // Read again, so that the gateway's closing frame completes the close (what else it sent is ignored).
      if (this.holds.size > 0) {
        this.holds.clear();
        this.readAgain();
      }
    }
  }

  /** Token bucket: framesPerSecond on average, framesBurst at once. A bucket half full again ends a pacing episode. */
  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(hubLimits.framesBurst, this.tokens + ((now - this.lastRefill) / 1000) * hubLimits.framesPerSecond);
    this.lastRefill = now;
    if (this.tokens >= hubLimits.framesBurst / 2) {
      this.pacedFrames = 0;
    }
  }

  /**
   * Stops reading from the socket for `hold`, at its handle: what the gateway sends meanwhile
   * waits in TCP, not in this process (10,000 paused gateways held up to 80 KiB each when only
   * the stream paused). Frames of the read already taken still arrive (held when paced).
   */
  hold(hold: Hold): void {
    this.holds.add(hold);
    this.socket.pause();
    stopReading(this.stream);
  }

  /** Reads again once nothing holds the connection. */
  release(hold: Hold): void {
    this.holds.delete(hold);
    if (this.holds.size === 0 && this.socket.readyState === WebSocket.OPEN) {
      this.alive = true;
      this.readAgain();
    }
  }

  private readAgain(): void {
    readAgain(this.stream);
    this.socket.resume();
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    if (this.socket.readyState !== WebSocket.OPEN) {
      return;
    }
    this.alive = true;
    if (this.held.length > 0) {
      this.held.push({ data, isBinary });
      return;
    }
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.onAllowedFrame(data, isBinary);
      return;
    }
    if (this.pacedFrames >= hubLimits.pacedFramesMax) {
      this.rateLimited();
      return;
    }
    // Beyond the burst: stop reading and take the frames at the rate (a backlog sent at once).
    this.held.push({ data, isBinary });
    this.hold('pace');
    this.schedulePace();
  }

  /** Still faster than the rate after a paced backlog's worth of frames: a flood, not a backlog. */
  private rateLimited(): void {
    this.held = [];
    this.options.log.warn({ device: this.device?.identifier }, 'gateway closed: frames faster than allowed beyond a paced backlog');
    this.close(closeCodes.rateLimited, 'too many frames');
  }

  private schedulePace(): void {
    if (!this.paceTimer) {
      this.paceTimer = setTimeout(() => this.pace(), paceTickMs);
    }
  }

  /** Takes the held frames the bucket allows; reads again once none are left. */
  private pace(): void {
    this.paceTimer = null;
    if (this.socket.readyState !== WebSocket.OPEN) {
      this.held = [];
      return;
    }
    this.refill();
    while (this.held.length > 0 && this.tokens >= 1) {
      const frame = this.held.shift();
      if (!frame) {
        break;
      }
      if (this.pacedFrames >= hubLimits.pacedFramesMax) {
        this.rateLimited();
        return;
      }
      this.tokens -= 1;
      this.pacedFrames += 1;
      this.onAllowedFrame(frame.data, frame.isBinary);
    }
    if (this.held.length > 0) {
      this.schedulePace();
      return;
    }
    this.release('pace');
  }

  private onAllowedFrame(data: RawData, isBinary: boolean): void {
    const envelope = isBinary ? null : parseEnvelope(data.toString());
    if (!envelope) {
      if (!this.device) {
        this.close(closeCodes.policyViolation, 'expected an authenticate envelope');
        return;
      }
      this.options.log.warn({ device: this.device.identifier }, 'gateway sent a frame that is not an envelope');
      this.sendError('payload_not_json', 'Each frame is one JSON envelope: { id, type, payload }.');
      return;
    }
    if (!this.device) {
      if (envelope.type !== 'authenticate') {
        this.close(closeCodes.policyViolation, 'expected an authenticate envelope');
        return;
      }
      void this.authenticate(envelope as Envelope<'authenticate', AuthenticatePayload>);
      return;
    }
    switch (envelope.type) {
      case 'report':
        this.onReport(envelope);
        return;
      case 'ack':
        void this.onAck(envelope);
        return;
      case 'error':
        this.options.log.warn({ device: this.device.identifier, payload: envelope.payload }, 'gateway reported an error');
        this.options.messagesFromDevice.errorEnvelope(this.device.deviceId, envelope);
        return;
      default:
        this.sendError('payload_invalid', `A gateway does not send ${envelope.type} envelopes.`, [envelope.id]);
    }
  }

  private async authenticate(envelope: Envelope<'authenticate', AuthenticatePayload>): Promise<void> {
    const payload = (typeof envelope.payload === 'object' && envelope.payload !== null ? envelope.payload : {}) as Partial<AuthenticatePayload>;
    const signature = base64Bytes(payload.signature);
    const pem = typeof payload.certificate === 'string' ? payload.certificate : null;
    // The cheap checks first (the certificate's bytes, remembered, and the signature over the nonce); the database only for a holder of the key not reconnecting too often.
    const read = pem === null ? null : this.options.readCertificate(pem);
    const signed = read !== null && signature !== null && verifyDeviceSignature(read.publicKey, this.nonce, signature);
    clearTimeout(this.authTimer);
    if (!signed || pem === null) {
      this.refuseAuthentication();
      return;
    }
    if (read.fingerprint !== this.counted) {
      const retryAfter = await this.hub.throttle.attempt(read.fingerprint);
      if (retryAfter !== null) {
        this.close(closeCodes.reconnectThrottled, throttledReason(retryAfter));
        return;
      }
    }
    this.fingerprint = read.fingerprint;
    let device: CertifiedDevice | null;
    try {
      device = await this.options.verifyCertificate(pem);
    } catch (error) {
      this.options.log.error({ err: error }, 'looking the device of a certificate up failed; the gateway reconnects');
      this.hub.throttle.refund(read.fingerprint);
      this.close(closeCodes.serviceRestart, 'the device could not be looked up; reconnect');
      return;
    }
    if (!device) {
      this.refuseAuthentication();
      return;
    }
    const networkInterface = typeof payload.networkInterface === 'string' ? payload.networkInterface.slice(0, 32) : this.networkInterfaceHint;
    await this.accept(device, networkInterface, typeof payload.version === 'string' ? payload.version.slice(0, 64) : null);
  }

  private refuseAuthentication(): void {
    this.options.log.warn('gateway refused: the certificate or signature does not prove a provisioned device');
    this.close(closeCodes.authenticationFailed, 'authentication failed');
  }

  /** The device is proven (signed challenge or mutual TLS): it takes its place, is welcomed, and its outbox flows. */
  private async accept(device: CertifiedDevice, networkInterface: string | null, version: string | null): Promise<void> {
    if (this.socket.readyState !== WebSocket.OPEN) {
      return;
    }
    this.device = device;
    let keepAliveSeconds: number;
    try {
      keepAliveSeconds = await this.hub.register(this, networkInterface, version);
    } catch (error) {
      this.options.log.error({ err: error, device: device.identifier }, 'opening the session failed; the gateway reconnects');
      if (this.fingerprint !== null) {
        this.hub.throttle.refund(this.fingerprint);
      }
      this.close(closeCodes.serviceRestart, 'the session could not be opened; reconnect');
      return;
    }
    this.send('welcome', cloudId(), { identifier: device.identifier, keepAliveSeconds });
    this.keepAlive = setInterval(() => {
      // A connection that is not being read cannot show its pongs; it is alive until reading resumes.
      if (!this.alive && this.holds.size === 0) {
        this.socket.terminate();
        return;
      }
      this.alive = false;
      this.socket.ping();
      this.redeliverLate();
      // The outbox notification may have been lost (another node wrote it while Redis was
      // away): look at the outbox anyway, so delivery never waits on a notification alone.
      void this.drain();
    }, keepAliveSeconds * 1000);
    await this.drain();
  }

  private onReport(envelope: Envelope): void {
    const device = this.device;
    if (!device) {
      return;
    }
    const check = this.options.validateReport(envelope.payload);
    if (!check.ok) {
      this.options.log.warn({ device: device.identifier, reportId: envelope.id, issues: check.issues }, 'gateway report refused');
      this.sendError('payload_invalid', 'The report does not match its schema.', [envelope.id], check.issues);
      return;
    }
    const { report } = check;
    const implausible = implausibleReportIssues(report, Date.now(), this.runningConfig);
    if (implausible.length > 0) {
      this.options.log.warn({ device: device.identifier, reportId: envelope.id, issues: implausible }, 'gateway report refused as implausible');
      this.sendError('payload_invalid', 'The report cannot be true: its time or index is out of range.', [envelope.id], implausible);
      return;
    }
    if (report.type === 'config') {
      // The device runs this config from now on: its later reports name its assets and loops.
      this.runningConfig = runningConfigOf((report.observations as { config?: unknown } | undefined)?.config) ?? this.runningConfig;
    }
    this.options.ingest
      .submit({
        deviceId: device.deviceId,
        reportId: envelope.id,
        type: report.type,
        at: new Date(report.at),
        assetIndex: typeof report.asset === 'number' ? report.asset : null,
        controllerIndex: typeof report.controller === 'number' ? report.controller : null,
        body: report,
      })
      .then(
        () => {
          this.hub.reportStored();
          this.queueAck(envelope.id);
        },
        (error: unknown) => {
          // A full ingest queue is counted there (stats.refused), not logged.
          const key =
            error instanceof GridportError && error.key === 'service_unavailable' ? 'service_unavailable' : this.hub.reportFailed(error, device.identifier);
          if (key === 'disk_full') {
            this.sendError('disk_full', "The server's disk is full: the report was not stored; send it again later.", [envelope.id]);
            return;
          }
          this.sendError('service_unavailable', 'The report could not be stored; send it again later.', [envelope.id]);
        },
      );
  }

  /** Acknowledgements of one ingest batch go out together. */
  private queueAck(id: string): void {
    this.pendingAcks.push(id);
    if (this.pendingAcks.length >= hubLimits.ackIdsMax) {
      this.flushAcks();
    } else if (!this.ackTimer) {
      this.ackTimer = setTimeout(() => this.flushAcks(), 0);
    }
  }

  private flushAcks(): void {
    if (this.ackTimer) {
      clearTimeout(this.ackTimer);
      this.ackTimer = null;
    }
    const ids = this.pendingAcks;
    this.pendingAcks = [];
    if (ids.length > 0) {
      this.send('ack', cloudId(), { ids });
    }
  }

  private async onAck(envelope: Envelope): Promise<void> {
    const device = this.device;
    const ids = (envelope.payload as { ids?: unknown } | null)?.ids;
    if (
      !device ||
      !Array.isArray(ids) ||
      ids.length === 0 ||
      ids.length > hubLimits.ackIdsMax ||
      !ids.every((id) => typeof id === 'string' && /^\d{1,18}$/.test(id))
    ) {
      this.sendError('payload_invalid', `An ack carries ids: 1 to ${hubLimits.ackIdsMax} message ids.`, [envelope.id]);
      return;
    }
    const numeric = (ids as string[]).map(Number);
    try {
      await this.options.outbox.acknowledge(device.deviceId, numeric);
    } catch (error) {
      this.options.log.error({ err: error, device: device.identifier }, 'recording an acknowledgement failed');
      return;
    }
    for (const id of numeric) {
      this.inFlight.delete(id);
    }
    await this.drain();
  }

  /** Sends pending outbox messages in order while the window has room. */
  async drain(): Promise<void> {
    const device = this.device;
    if (!device || this.draining) {
      return;
    }
    this.draining = true;
    try {
      for (;;) {
        const room = hubLimits.deliveryWindow - this.inFlight.size;
        if (room <= 0 || this.socket.readyState !== WebSocket.OPEN) {
          return;
        }
        const pending = await this.hub.pendingOutbox(device.deviceId, room, this.lastQueuedId);
        if (pending.length === 0) {
          return;
        }
        for (const message of pending) {
          this.deliver(message);
        }
      }
    } catch (error) {
      this.options.log.error({ err: error, device: device.identifier }, 'reading the outbox failed');
    } finally {
      this.draining = false;
    }
  }

  private deliver(message: PendingMessage): void {
    this.inFlight.set(message.id, { sentAt: Date.now() });
    this.lastQueuedId = Math.max(this.lastQueuedId, message.id);
    this.send('message', String(message.id), message.payload);
    this.hub
      .markDelivered(message.id)
      .catch((error: unknown) => this.options.log.error({ err: error, device: this.device?.identifier, messageId: message.id }, 'recording a delivery failed'));
  }

  /** Messages not acknowledged in time are sent again (the device stores each once by its id). */
  private redeliverLate(): void {
    const late = [...this.inFlight.entries()].filter(([, { sentAt }]) => Date.now() - sentAt >= hubLimits.redeliverAfterMs).map(([id]) => id);
    if (late.length === 0 || !this.device) {
      return;
    }
    for (const id of late) {
      this.inFlight.delete(id);
    }
    this.lastQueuedId = Math.min(...late) - 1;
    void this.drain();
  }

  private onClose(): void {
    clearTimeout(this.authTimer);
    if (this.paceTimer) {
      clearTimeout(this.paceTimer);
    }
    this.held = [];
    if (this.keepAlive) {
      clearInterval(this.keepAlive);
    }
    if (this.ackTimer) {
      clearTimeout(this.ackTimer);
    }
    if (this.device) {
      void this.hub.unregister(this);
    }
  }
}

/**
 * The device hub's gateway side: the websocket at /v1/device/connect on the HTTP server. It
 * keeps one connection per device (a newer one replaces the older, closed with 4003), tracks
 * online state and the network interface in the devices table, and tells subscribers on the
 * presence channel.
 */
export class GatewayServer {
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: hubLimits.maxFrameBytes });
  private readonly connections = new Map<number, GatewayConnection>();
  /** Each device's connection attempts in its window (a gateway reconnecting in a tight loop). */
  readonly throttle: ReconnectThrottle;
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(request.url ?? '/', 'http://hub');
    if (url.pathname !== gatewayPath) {
      return;
    }
    const tls = { certificatePem: peerCertificatePem(request), version: url.searchParams.get('version')?.slice(0, 64) ?? null };
    // Mutual TLS proved the key: a device reconnecting too often is refused before the websocket exists.
    const read = tls.certificatePem === null ? null : this.options.readCertificate(tls.certificatePem);
    // The connection lives through the socket's own events once upgraded. The upgrade's answer
    // and the challenge (sent as the connection starts, in the same tick) leave in one write.
    const upgrade = () => {
      socket.cork();
      try {
        this.sockets.handleUpgrade(
          request,
          socket,
          head,
          (ws) =>
            new GatewayConnection(
              ws,
              socket,
              this,
              this.options,
              url.searchParams.get('networkInterface')?.slice(0, 32) ?? null,
              tls,
              read?.fingerprint ?? null,
            ),
        );
      } finally {
        socket.uncork();
      }
    };
    if (!read) {
      upgrade();
      return;
    }
    // The HTTP server no longer listens for the socket's errors: one while the count is asked (Redis) must not go unhandled.
    const dropped = () => socket.destroy();
    socket.on('error', dropped);
    void this.throttle.attempt(read.fingerprint).then((retryAfter) => {
      socket.off('error', dropped);
      if (socket.destroyed) {
        return;
      }
      if (retryAfter !== null) {
        refuseUpgrade(socket, 'too_many_requests', undefined, { 'Retry-After': String(retryAfter) });
        return;
      }
      upgrade();
    });
  };

  private readonly stopPresence: () => void;
  private readonly stopOutbox: () => void;
  private readonly stopPressure: () => void;
  private closing = false;
  /** Reports refused since the report store failed, while it fails (logged at its start and end). */
  private storeOutage: { since: number; failed: number } | null = null;
  /** Whether the ingest is behind: connections stop reading until it catches up. */
  private ingestPressed = false;
  /** When a pause was last logged, and the pauses since then not logged (under sustained load the ingest pauses several times a second). */
  private pauseLog = { at: Number.NEGATIVE_INFINITY, unlogged: 0 };
  /** The handshakes' and deliveries' queries, gathered across connections (handshakeBatching). */
  private readonly sessions: Batcher<DeviceSession, OpenedSession>;
  private readonly outboxReads: Batcher<{ deviceId: number; limit: number; afterId: number }, PendingMessage[]>;
  private readonly deliveries: Batcher<number, undefined>;
  private readonly disconnects: Batcher<{ deviceId: number; connectionId: string }, boolean>;

  constructor(private readonly options: GatewayServerOptions) {
    this.throttle = new ReconnectThrottle(options.reconnectThrottle ?? { attempts: hubLimits.reconnectsPerWindow, windowMs: hubLimits.reconnectWindowMs }, {
      log: options.log,
      redis: options.redis ?? null,
    });
    this.sessions = new Batcher((sessions) => options.presence.connectedMany(sessions), handshakeBatching);
    this.outboxReads = new Batcher((requests) => options.outbox.pendingMany(requests), handshakeBatching);
    this.disconnects = new Batcher((connections) => options.presence.disconnectedMany(connections), handshakeBatching);
    this.deliveries = new Batcher(async (ids) => {
      await options.outbox.markDeliveredMany(ids);
      return ids.map(() => undefined);
    }, handshakeBatching);
    // Back-pressure: while the ingest is behind, no gateway's reports are read (they wait in TCP
    // and in the gateways' stores), so the queue and the wait for a commit stay bounded.
    this.stopPressure = options.ingest.onPressure((pressed) => {
      this.ingestPressed = pressed;
      if (pressed) {
        this.logPause();
      }
      for (const connection of this.connections.values()) {
        if (pressed) {
          connection.hold('ingest');
        } else {
          connection.release('ingest');
        }
      }
    });
    // One subscription for every connection here: a notification wakes the device's connection, if it is here.
    this.stopOutbox = options.pubsub.subscribe(channels.outbox, (message) => {
      const deviceId = (message as { deviceId?: unknown }).deviceId;
      if (typeof deviceId === 'number') {
        void this.connections.get(deviceId)?.drain();
      }
    });
    // A newer connection of a device on another node replaces the one held here.
    this.stopPresence = options.pubsub.subscribe(channels.presence, (message) => {
      const presence = message as { deviceId?: number; online?: boolean; connectionId?: string };
      const held = presence.deviceId === undefined ? undefined : this.connections.get(presence.deviceId);
      if (held && presence.online && presence.connectionId !== held.connectionId) {
        this.connections.delete(presence.deviceId as number);
        held.close(closeCodes.replaced, 'replaced by a newer connection');
      }
    });
  }

  /** A pause for the ingest, logged at most once per hubLimits.ingestPauseLogMs with the pauses since the last line. */
  private logPause(): void {
    const now = performance.now();
    if (now - this.pauseLog.at < hubLimits.ingestPauseLogMs) {
      this.pauseLog.unlogged += 1;
      return;
    }
    this.options.log.warn(
      { queued: this.options.ingest.queued, connections: this.connections.size, pausesNotLogged: this.pauseLog.unlogged },
      'the ingest is behind: reading from gateways paused (logged at most once a minute; gridport_ingest_pauses_total counts every pause)',
    );
    this.pauseLog = { at: now, unlogged: 0 };
  }

  /** Serves gateways on this HTTP server's upgrades to /v1/device/connect. */
  attach(server: Server): void {
    server.on('upgrade', this.onUpgrade);
  }

  /** How many gateways are connected here. */
  get size(): number {
    return this.connections.size;
  }

  /**
   * A report could not be stored (the database away, its disk full): logged once for the
   * outage, not for each report (a node's gateways send thousands a second), and counted until
   * a report is stored again. Answers the key the gateway is told: disk_full, else service_unavailable.
   */
  reportFailed(error: unknown, device: string): 'disk_full' | 'service_unavailable' {
    const cause = infrastructureError(error);
    const key = cause?.error.key === 'disk_full' ? 'disk_full' : 'service_unavailable';
    if (!this.storeOutage) {
      this.storeOutage = { since: Date.now(), failed: 0 };
      this.options.log.error(
        { err: error, device, key },
        `storing reports failed${cause ? ` (${cause.logMessage})` : ''}; gateways are told ${key} and send them again; logged once until a report is stored again`,
      );
    }
    this.storeOutage.failed += 1;
    return key;
  }

  /** A report was stored: an outage of the report store, if one was logged, has ended. */
  reportStored(): void {
    if (!this.storeOutage) {
      return;
    }
    const { since, failed } = this.storeOutage;
    this.storeOutage = null;
    this.options.log.warn(
      { failed, seconds: Math.round((Date.now() - since) / 1000) },
      `storing reports works again; ${failed} reports were refused meanwhile (the gateways send them again)`,
    );
  }

  /** Takes the device's place for this connection; answers the keep-alive interval of its config. */
  async register(connection: GatewayConnection, networkInterface: string | null, version: string | null): Promise<number> {
    const device = connection.device;
    if (!device) {
      return hubLimits.defaultKeepAliveSeconds;
    }
    const previous = this.connections.get(device.deviceId);
    this.connections.set(device.deviceId, connection);
    if (previous && previous !== connection) {
      previous.close(closeCodes.replaced, 'replaced by a newer connection');
    }
    connection.networkInterface = networkInterface;
    if (this.ingestPressed) {
      connection.hold('ingest');
    }
    await this.options.node.ready;
    const opened = await this.sessions.submit({
      deviceId: device.deviceId,
      nodeId: this.options.node.nodeId,
      connectionId: connection.connectionId,
      networkInterface,
      version,
    });
    connection.runningConfig = opened.runningConfig;
    this.options.log.info({ device: device.identifier, networkInterface }, 'gateway connected');
    return opened.keepAliveSeconds ?? hubLimits.defaultKeepAliveSeconds;
  }

  /** The device's pending outbox messages (outbox.pending), read together with other connections'. */
  pendingOutbox(deviceId: number, limit: number, afterId: number): Promise<PendingMessage[]> {
    return this.outboxReads.submit({ deviceId, limit, afterId });
  }

  /** Records a message sent (outbox.markDelivered), together with other connections' sends. */
  async markDelivered(id: number): Promise<void> {
    await this.deliveries.submit(id);
  }

  /** Settles once the queries gathered from connections (sessions opened and closed, outbox reads, delivery marks) have run. */
  async idle(): Promise<void> {
    await Promise.all([this.sessions.idle(), this.outboxReads.idle(), this.deliveries.idle(), this.disconnects.idle()]);
  }

  async unregister(connection: GatewayConnection): Promise<void> {
    const device = connection.device;
    if (!device || this.connections.get(device.deviceId) !== connection) {
      return;
    }
    this.connections.delete(device.deviceId);
    this.options.log.info({ device: device.identifier }, 'gateway disconnected');
    if (this.closing) {
      // The node's stop closes every session it holds, after the connections.
      return;
    }
    try {
      // Only while this connection still holds the device: a newer one (here or on another node) has taken over otherwise.
      await this.disconnects.submit({ deviceId: device.deviceId, connectionId: connection.connectionId });
    } catch (error) {
      this.options.log.error({ err: error, device: device.identifier }, 'recording a disconnect failed; the session closes when the sweep finds it');
    }
  }

  /** After this node's lease ran out: each connection here takes its device's session back, or yields to a newer one elsewhere. */
  async retakeAll(): Promise<void> {
    for (const connection of [...this.connections.values()]) {
      const device = connection.device;
      if (!device) {
        continue;
      }
      const outcome = await this.options.presence.retake({
        deviceId: device.deviceId,
        nodeId: this.options.node.nodeId,
        connectionId: connection.connectionId,
        networkInterface: connection.networkInterface,
        version: null,
      });
      if (outcome === 'lost' && this.connections.get(device.deviceId) === connection) {
        this.connections.delete(device.deviceId);
        connection.close(closeCodes.replaced, 'replaced by a newer connection');
      }
    }
  }

  /** Closes every gateway connection (they reconnect elsewhere or later) and stops serving. */
  async close(): Promise<void> {
    this.closing = true;
    this.stopPresence();
    this.stopOutbox();
    this.stopPressure();
    for (const connection of this.connections.values()) {
      connection.close(closeCodes.serviceRestart, 'the server is restarting');
    }
    await closeWebSockets(this.sockets, closeCodes.serviceRestart, 'the server is restarting');
    // Disconnects recorded before the stop finish before the node closes what it still holds (the two would lock the same rows).
    await this.idle();
  }
}
