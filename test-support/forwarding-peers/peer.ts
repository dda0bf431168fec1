import type { DestinationKind, ForwardedMessage } from '../../contracts/forwarding';

/** A message as read back from a peer: what every kind keeps, and the values where the medium keeps them whole. */
export interface ReceivedMessage {
  messageType: string;
  id: string;
  position: string;
  deviceHashId: string;
  at: string;
  /** The values as the peer holds them (absent where the medium cannot give them back whole, such as InfluxDB's numeric fields). */
  values?: Record<string, unknown>;
}

/** A running peer of one kind. */
export interface ForwardingPeer {
  kind: DestinationKind;
  /** A destination's settings (without `type`) that reach this peer; FORWARDING_ALLOW_PRIVATE_NETWORKS=true is needed for them. */
  settings: Record<string, unknown>;
  /** Everything the peer holds now, in the order it was received. */
  received(): Promise<ReceivedMessage[]>;
  /** Makes every delivery fail until `heal` (the peer refuses, stops or answers errors), for the pause and resume tests. */
  break(): Promise<void>;
  heal(): Promise<void>;
  stop(): Promise<void>;
}

export interface PeerStarter {
  kind: DestinationKind;
  /** Why this peer cannot run on this machine (a program not installed), or null when it can. */
  missing(): string | null;
  start(): Promise<ForwardingPeer>;
}

/** The comparable part of a forwarded message. */
export function receivedOf(message: ForwardedMessage): ReceivedMessage {
  return {
    messageType: message.messageType,
    id: message.id,
    position: message.position,
    deviceHashId: message.device.hashId,
    at: message.at,
    values: message.values,
  };
}
