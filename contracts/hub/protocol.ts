/**
 * The gateway protocol (spec README, "Device transport"; docs/gateway-protocol.md): JSON text
 * frames over the websocket at /v1/device/connect, one envelope each, acknowledged both ways.
 *
 *   cloud  → device  challenge     { nonce }                                  (unless mutual TLS proved the certificate)
 *   device → cloud   authenticate  { certificate, signature, version?, networkInterface? }
 *   cloud  → device  welcome       { identifier, keepAliveSeconds }
 *   device → cloud   report        a report (device-model.md 3.9)         → cloud answers ack { ids } after commit, or error
 *   cloud  → device  message       a cloud-to-device message (3.10)      → device answers ack { ids }
 *   either           error         { ids?, key, message, details? }
 *
 * The id of a report is the device's own and stays the same when it is sent again: the cloud
 * stores a report once however often it arrives. The id of a message is the outbox row's.
 */

/** The websocket path gateways connect to. */
export const gatewayPath = '/v1/device/connect';

/** Where a device dials back to carry a tunnel it was asked to open (openTunnel), and the headers that prove it. */
export const tunnelPath = '/v1/device/connect/tunnel';
export const tunnelHeaders = {
  /** The device's certificate, PEM, base64. */
  certificate: 'x-gridport-certificate',
  /** The tunnel id's UTF-8 bytes signed with the certificate's key (as the challenge), base64. */
  signature: 'x-gridport-signature',
} as const;

/** Limits per connection. */
export const hubLimits = {
  /** Largest frame, in bytes; a larger one closes the connection with 1009. */
  maxFrameBytes: 1024 * 1024,
  /** Frames per second a connection may send on average, and in a burst; beyond it the connection is closed with 4008. */
  framesPerSecond: 200,
  framesBurst: 1000,
  /**
   * Frames a connection may send beyond the burst in one go (a backlog sent at once): the hub
   * stops reading from it and takes them at framesPerSecond. One still faster after these is
   * closed with 4008. The pace ends once the bucket is half full again.
   */
  pacedFramesMax: 2000,
  /** How long a gateway has to authenticate after connecting. */
  authenticateWithinMs: 10_000,
  /** Keep-alive when the config gives none (cloudKeepAliveIntervalInSec is 5-60). */
  defaultKeepAliveSeconds: 30,
  /** Reports stored in one transaction at most, and how long a report waits for others to join its batch. */
  ingestBatchMax: 2000,
  ingestBatchWaitMs: 5,
  /**
   * Reports waiting for the ingest (on one node, not yet being written): at ingestPauseAt the hub
   * stops reading from every gateway until no more than ingestResumeAt wait; a report that
   * still finds ingestQueueMax waiting is answered service_unavailable (the gateway sends it
   * again). So the wait for a commit stays bounded when the database falls behind.
   */
  ingestPauseAt: 4000,
  /** Batches written at once (each its own database backend), answered in order. */
  ingestWritesInFlight: 2,
  ingestResumeAt: 2000,
  ingestQueueMax: 8000,
  /** The hub logs a pause for the ingest at most this often; the pauses between are counted (gridport_ingest_pauses_total) and named in the next line. */
  ingestPauseLogMs: 60_000,
  /** Unacknowledged messages in flight per connection; the rest wait their turn. */
  deliveryWindow: 50,
  /** How long a sent message waits for its acknowledgement before it is sent again. */
  redeliverAfterMs: 30_000,
  /** Most ids one ack may carry. */
  ackIdsMax: 1000,
  /** How long a developer's tunnel request waits for the device to dial back (then device_tunnel_timeout). */
  tunnelOpenTimeoutMs: 15_000,
  /** Longest envelope id. */
  idLength: 64,
  /**
   * Connections one device (one certificate) may open in a window: a gateway reconnecting in a
   * tight loop is refused beyond them (HTTP 429 with Retry-After on a mutual-TLS upgrade, close
   * 4029 after the signed challenge), before its device is looked up or its session opened.
   */
  reconnectsPerWindow: 10,
  reconnectWindowMs: 60_000,
} as const;

/** Close codes (RFC 6455 private range 4000-4999, and the standard ones used). */
export const closeCodes = {
  /** 1008: a frame that is not an envelope before authentication, or a protocol violation. */
  policyViolation: 1008,
  /** 1009: a frame above maxFrameBytes. */
  tooBig: 1009,
  /** 1012: the server is restarting; reconnect. */
  serviceRestart: 1012,
  /** The certificate or signature did not prove a provisioned device. */
  authenticationFailed: 4001,
  /** No authenticate within authenticateWithinMs. */
  authenticationTimeout: 4002,
  /** A newer connection of the same device replaced this one. */
  replaced: 4003,
  /** Frames faster than framesPerSecond allows. */
  rateLimited: 4008,
  /** The device connected more than reconnectsPerWindow times in reconnectWindowMs; the reason says when to come back (retryAfterOfReason). */
  reconnectThrottled: 4029,
} as const;

/** The reason of a 4029 close: the seconds to wait, as HTTP's Retry-After says them for a refused upgrade. */
export function throttledReason(retryAfterSeconds: number): string {
  return `reconnecting too often; retry after ${retryAfterSeconds} s`;
}

/** The seconds a 4029 close's reason (throttledReason) or a 429's Retry-After header asks to wait; null when it names none. */
export function retryAfterOfReason(reason: string): number | null {
  const seconds = /retry after (\d{1,6}) s$/.exec(reason)?.[1] ?? /^\d{1,6}$/.exec(reason.trim())?.[0];
  return seconds === undefined ? null : Number(seconds);
}

export const envelopeTypes = ['challenge', 'authenticate', 'welcome', 'report', 'message', 'ack', 'error'] as const;
export type EnvelopeType = (typeof envelopeTypes)[number];

export interface Envelope<T extends EnvelopeType = EnvelopeType, P = unknown> {
  id: string;
  type: T;
  payload: P;
}

export interface ChallengePayload {
  /** 32 random bytes, base64. */
  nonce: string;
}

export interface AuthenticatePayload {
  /** The certificate provisioning issued, PEM. */
  certificate: string;
  /** The nonce's bytes signed with the certificate's key (ECDSA P-256 with SHA-256, IEEE P1363 r||s), base64. */
  signature: string;
  /** The agent's version. */
  version?: string;
  /** The network interface the connection runs over: eth0, eth1 or cellular. */
  networkInterface?: string;
}

export interface WelcomePayload {
  identifier: string;
  /** Send a ping (or any frame) at least this often; the cloud pings at the same interval. */
  keepAliveSeconds: number;
}

export interface AckPayload {
  ids: string[];
}

export interface ErrorPayload {
  /** The envelopes the error is about, when there are any. */
  ids?: string[];
  /** A key of the error catalogue (contracts/errors.ts). */
  key: string;
  message: string;
  details?: unknown;
}

/**
 * Whether text can be stored as it is: PostgreSQL keeps neither U+0000 in text nor an unpaired
 * surrogate (\ud800 without its pair) in JSON, so a report carrying one would fail its whole
 * batch. Such text is refused where it arrives.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** Reads an envelope from a text frame; null when the frame is not one (not JSON, an id that is not 1 to 64 storable characters, no type, unknown type). */
export function parseEnvelope(text: string): Envelope | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return null;
  }
  const { id, type, payload } = value as Record<string, unknown>;
  if (
    typeof id !== 'string' ||
    id.length === 0 ||
    id.length > hubLimits.idLength ||
    !isStorableText(id) ||
    typeof type !== 'string' ||
    !(envelopeTypes as readonly string[]).includes(type)
  ) {
    return null;
  }
  return { id, type: type as EnvelopeType, payload: payload ?? null };
}
