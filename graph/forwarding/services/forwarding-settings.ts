import { forwardingLimits } from '../../../contracts/forwarding';
import type { AddressPolicy } from '../delivery/address-guard';

/** How this install forwards (docs/forwarding.md, "Configuration"). */
export interface ForwardingSettings extends AddressPolicy {
  /** A destination failing this long in a row is paused (FORWARDING_PAUSE_AFTER_SECONDS; the spec's 15 minutes by default). */
  pauseAfterSeconds: number;
  /** How often an idle node looks for work (FORWARDING_POLL_MS). */
  pollMs: number;
  /** Destinations one node delivers to at once (FORWARDING_CONCURRENCY; 0: none, the node only serves). */
  concurrency: number;
}

export const defaultForwardingSettings: ForwardingSettings = {
  allowPrivateNetworks: false,
  pauseAfterSeconds: forwardingLimits.pauseAfterFailingSeconds,
  pollMs: 250,
  concurrency: 16,
};
