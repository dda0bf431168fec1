/**
 * How the agent reads an asset's connection (api.md section 3: rs485, tcp, udp, url, none,
 * multiple). Modbus goes over rs485, tcp and udp (edge/modbus/link-pool.ts); OPC XML-DA and
 * Vestas AP over url; none is a virtual asset with no link of its own; multiple is a default
 * connection plus named extra ones, for an asset whose parts sit behind different links.
 *
 * Our reading where the spec gives none: a multiple connection's default is the asset's
 * connection for everything that does not ask for a name; a name the record lacks falls back
 * to the default.
 */
import type { AssetConfig } from '../../contracts/device/assets';
import type { AssetType } from '../../contracts/device/asset-types';
import type { Connection } from '../../contracts/device/connection';
import { hasDriver } from '../drivers';

/** One connection of the single kinds (a multiple connection's default or one of its named ones). */
export type SingleConnection = Exclude<Connection, { type: 'multiple' }>;

/** What speaks over which connection types. */
export const connectionCarriers = {
  modbus: ['rs485', 'tcp', 'udp'],
  http: ['url'],
} as const satisfies Record<string, readonly SingleConnection['type'][]>;
export type ConnectionCarrier = keyof typeof connectionCarriers;

/** The connection named `name` of a multiple connection (its default without a name or for a name it lacks); a single connection is itself. */
export function connectionNamed(connection: Connection, name?: string): SingleConnection {
  if (connection.type !== 'multiple') {
    return connection;
  }
  return (name === undefined ? undefined : connection.connections[name]) ?? connection.default;
}

/** The named extra connections of a multiple connection (none for the single kinds). */
export function extraConnections(connection: Connection): Record<string, SingleConnection> {
  return connection.type === 'multiple' ? { ...connection.connections } : {};
}

/**
 * The URL an asset is reached at over HTTP: a url connection's, or of a multiple connection its
 * default when that is a url, else its named url connection when it has exactly one. Null: none.
 */
export function urlOf(connection: Connection): string | null {
  const chosen = connectionNamed(connection);
  if (chosen.type === 'url') {
    return chosen.url;
  }
  const named = Object.values(extraConnections(connection)).filter((entry): entry is Extract<SingleConnection, { type: 'url' }> => entry.type === 'url');
  return named.length === 1 && named[0] !== undefined ? named[0].url : null;
}

/** Whether `carrier` can go over the connection (of a multiple connection: the one named, its default without a name). */
export function carries(connection: Connection, carrier: ConnectionCarrier, name?: string): boolean {
  const types: readonly string[] = connectionCarriers[carrier];
  return types.includes(connectionNamed(connection, name).type);
}

/** The asset types reached over HTTP (OPC XML-DA): Vestas AP (edge/opc). */
const httpAssetTypes: ReadonlySet<string> = new Set<AssetType>(['vestas-ap']);

/**
 * Why the agent cannot reach an asset over its connection, or null when it can (or cannot
 * tell). The built-in drivers speak Modbus over the asset's connection (of a multiple one: its
 * default, as the link pool takes it), so an asset of theirs on a url is refused at start
 * rather than failing every poll; the http types need a url. A none connection is left to the
 * driver: a virtual asset (a demo type on an in-process plant) has no link of its own.
 */
export function connectionRefusal(asset: AssetConfig): string | null {
  const connection = asset.communication;
  if (connection.type === 'none') {
    return null;
  }
  if (httpAssetTypes.has(asset.type)) {
    return urlOf(connection) === null ? `a ${connection.type} connection has no url to reach it at` : null;
  }
  if (hasDriver(asset.type as AssetType) && !carries(connection, 'modbus')) {
    return `a ${connection.type} connection carries no Modbus, which its driver speaks`;
  }
  return null;
}
