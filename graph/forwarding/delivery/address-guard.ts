import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { GridportError } from '../../../contracts/errors';

/**
 * Which addresses forwarding may reach (spec README, "Private addresses"): every destination
 * connects only to public unicast addresses, unless the operator sets
 * FORWARDING_ALLOW_PRIVATE_NETWORKS=true. Names are resolved here and the checked address is
 * the one connected to (`resolveTarget`, `guardedLookup`), so a name that resolves to a public
 * address when saved and to 127.0.0.1 when used is refused all the same.
 */
export interface AddressPolicy {
  allowPrivateNetworks: boolean;
}

/** True for every address but public unicast: loopback, private, link-local (169.254.169.254), CGNAT, unique-local, multicast, reserved. */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) {
    return true;
  }
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() !== 'unicast';
}

function refusal(host: string, address: string): GridportError {
  return new GridportError('destination_address_not_allowed', [
    { path: 'destination', message: `${host} resolves to ${address}, which forwarding may not reach (FORWARDING_ALLOW_PRIVATE_NETWORKS is off)` },
  ]);
}

function unbracketed(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/** Refuses `address` (found for `host`) when the policy forbids it. */
export function checkAddress(host: string, address: string, policy: AddressPolicy): void {
  if (!policy.allowPrivateNetworks && isForbiddenAddress(address)) {
    throw refusal(host, address);
  }
}

/**
 * The address to connect to for `host`: the host itself when it is an IP address, else the
 * first address it resolves to; every resolved address must pass (one forbidden address among
 * several refuses the name, so no resolver order can pick it later).
 */
export async function resolveTarget(host: string, policy: AddressPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const bare = unbracketed(host);
  if (ipaddr.isValid(bare)) {
    checkAddress(host, bare, policy);
    return { address: bare, family: ipaddr.parse(bare).kind() === 'ipv6' ? 6 : 4 };
  }
  const addresses = await lookupAll(bare);
  for (const { address } of addresses) {
    checkAddress(host, address, policy);
  }
  const first = addresses[0];
  if (!first) {
    throw new Error(`${host} resolves to no address`);
  }
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * A lookup for sockets (net, tls, http agents, undici): resolves as dns.lookup does and fails
 * the connection when any address is forbidden. A connection to an IP literal never calls a
 * lookup; clients given this must check such hosts with `resolveTarget` (or `checkAddress`) first.
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number } | undefined, callback: (...args: unknown[]) => void) => {
    lookupAll(hostname).then(
      (addresses) => {
        try {
          for (const { address } of addresses) {
            checkAddress(hostname, address, policy);
          }
        } catch (error) {
          callback(error);
          return;
        }
        const wanted = options?.family ? addresses.filter((entry) => entry.family === options.family) : addresses;
        const chosen = wanted.length > 0 ? wanted : addresses;
        if (options?.all) {
          callback(null, chosen);
        } else {
          const first = chosen[0];
          if (!first) {
            callback(new Error(`${hostname} resolves to no address`));
            return;
          }
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => callback(error),
    );
  }) as unknown as LookupFunction;
}

/**
 * The check made when a destination is saved, so an obvious mistake is named at once: an IP
 * literal or a name that resolves (within a few seconds) to a forbidden address. A name that
 * does not resolve now is accepted; the check at connect time still stands.
 */
export async function checkHostsWhenSaved(hosts: readonly string[], policy: AddressPolicy, timeoutMs = 3000): Promise<void> {
  if (policy.allowPrivateNetworks) {
    return;
  }
  for (const host of hosts) {
    const bare = unbracketed(host);
    if (ipaddr.isValid(bare)) {
      checkAddress(host, bare, policy);
      continue;
    }
    let timer: NodeJS.Timeout | undefined;
    const addresses = await Promise.race([
      lookupAll(bare).catch(() => [] as LookupAddress[]),
      new Promise<LookupAddress[]>((resolve) => {
        timer = setTimeout(() => resolve([]), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    for (const { address } of addresses) {
      checkAddress(host, address, policy);
    }
  }
}
