import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import type { DestinationKind, ForwardedMessage } from '../../contracts/forwarding';
import type { DeliveryContext } from '../../graph/forwarding/delivery/deliverer';
import { requireServices } from '../services';

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

/** What `peer` holds of `batch`'s messages (by position), in the order it received them. */
export async function receivedOfBatch(peer: ForwardingPeer, batch: readonly ForwardedMessage[]): Promise<ReceivedMessage[]> {
  const positions = new Set(batch.map((message) => message.position));
  return (await peer.received()).filter((message) => positions.has(message.position));
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

/** `describe` when the peer can run here (or REQUIRE_SERVICES is set, making a missing one a failure); `describe.skip` with the reason otherwise. */
export function describeWithPeer(starter: PeerStarter, file: string): jest.Describe {
  const missing = starter.missing();
  if (missing === null || requireServices) {
    return describe;
  }
  process.stderr.write(`${path.relative(process.cwd(), file)}: skipped, ${missing} (REQUIRE_SERVICES=1 makes this a failure)\n`);
  return describe.skip;
}

/** What a deliverer under test is given: private networks allowed or not, a quiet log. */
export function deliveryContext(allowPrivateNetworks: boolean, destinationHashId = 'dst0001'): DeliveryContext {
  return { destinationHashId, policy: { allowPrivateNetworks }, log: pino({ level: 'silent' }) };
}

/** A TCP listener on 127.0.0.1 that only counts the connections made to it: the address guard's tests point a deliverer at it. */
export async function connectionCounter(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('the counting listener has no port');
  }
  return { port: address.port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
