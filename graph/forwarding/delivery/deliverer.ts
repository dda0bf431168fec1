import type { Logger } from 'pino';
import type { DestinationKind, DestinationSettingsOf, ForwardedMessage } from '../../../contracts/forwarding';
import type { AddressPolicy } from './address-guard';

/** What a deliverer is given besides its settings. */
export interface DeliveryContext {
  /** The destination's hash id (file names, client ids). */
  destinationHashId: string;
  /** Which addresses it may connect to: every connection it opens goes through address-guard.ts. */
  policy: AddressPolicy;
  log: Logger;
}

/**
 * Delivers batches of messages to one destination. `deliver` resolves only once the peer has
 * taken the whole batch (committed, confirmed, acknowledged or written and renamed), and
 * rejects otherwise; the worker then delivers the same batch again later, so a deliverer must
 * make a batch delivered twice harmless where its peer allows (a key, an upsert, a fixed file
 * name) and documents where it does not (docs/forwarding.md, "Kinds"). Messages come in stream
 * order, which keeps each device's order. A deliverer keeps its connection between batches and
 * opens a new one after a failure.
 */
export interface Deliverer {
  deliver(messages: readonly ForwardedMessage[]): Promise<void>;
  close(): Promise<void>;
}

/** Builds the deliverer of one kind from its settings (secrets opened) and the context. */
export type DelivererFactory<K extends DestinationKind> = (settings: DestinationSettingsOf<K>, context: DeliveryContext) => Deliverer;
