import type { Knex } from 'knex';
import { runningConfigOf, type RunningConfig } from '../../../contracts/hub/reports';
import { channels, type PubSub } from '../../common/pubsub';

/**
 * How long a node's lease lasts and how often it is renewed (HUB_HEARTBEAT_SECONDS,
 * HUB_LEASE_SECONDS; docs/operations.md, "Presence"). A device whose node died reads offline at
 * most leaseSeconds + heartbeatSeconds after the node's last heartbeat while any node runs, and
 * at once when a node starts on the dead one's host and port.
 */
export interface PresenceSettings {
  heartbeatSeconds: number;
  leaseSeconds: number;
}

export const defaultPresenceSettings: PresenceSettings = { heartbeatSeconds: 10, leaseSeconds: 30 };

/** A gateway connection that has just proven its device, on this node. */
export interface DeviceSession {
  deviceId: number;
  nodeId: string;
  connectionId: string;
  networkInterface: string | null;
  version: string | null;
}

/** What the hub needs to know about a device as its session opens. */
export interface OpenedSession {
  /** cloudKeepAliveIntervalInSec of the saved config; null when it gives none. */
  keepAliveSeconds: number | null;
  /** The config the device last reported running, else the saved one; null when the cloud knows none. */
  runningConfig: RunningConfig | null;
}

/** When a swept session was last known alive: its node's last heartbeat. */
const lastHeartbeat = 'coalesce((select n.heartbeat_at from hub_nodes n where n.id = devices.hub_node_id), now())';

/** Splits sessions into rounds in which each device appears once, keeping each device's sessions in order. */
function roundsOfDistinctDevices(sessions: readonly DeviceSession[]): DeviceSession[][] {
  const rounds: DeviceSession[][] = [];
  const seen = new Map<number, number>();
  for (const session of sessions) {
    const round = seen.get(session.deviceId) ?? 0;
    seen.set(session.deviceId, round + 1);
    (rounds[round] ??= []).push(session);
  }
  return rounds;
}

/**
 * Device presence (issue 14, item 4): which gateway connection, on which node, holds each
 * device, kept true across crashes. A session opens when a connection proves its device and
 * closes when that connection ends; each names its node, and each node holds a lease in
 * hub_nodes that its heartbeat renews. A session whose node's lease ran out (the node died or
 * lost the database) is closed by any node's sweep, exactly as a disconnect closes it: offline,
 * last seen at the node's last heartbeat, and `{ online: false }` on the presence channel. Every
 * write is conditional, so two nodes sweeping at once close each session once.
 */
export class DevicePresenceService {
  constructor(
    private readonly db: Knex,
    private readonly pubsub: PubSub,
  ) {}

  /** Takes the node's lease; null name until it knows where it serves. */
  async startNode(nodeId: string, settings: PresenceSettings): Promise<void> {
    await this.db.raw(
      `insert into hub_nodes (id, lease_expires_at) values (?, now() + make_interval(secs => ?))
       on conflict (id) do update set heartbeat_at = now(), lease_expires_at = excluded.lease_expires_at`,
      [nodeId, settings.leaseSeconds],
    );
  }

  /**
   * Names the node by where it serves and closes, at once, the sessions of any earlier node of
   * that name: only one process serves a host and port, so an earlier one there has died.
   * Answers the devices it set offline.
   */
  async nameNode(nodeId: string, name: string): Promise<number[]> {
    await this.db('hub_nodes').where('id', nodeId).update({ name });
    const earlier = (await this.db('hub_nodes').where('name', name).whereNot('id', nodeId).pluck('id')) as string[];
    if (earlier.length === 0) {
      return [];
    }
    const closed = await this.closeSessions(this.db.raw(`hub_node_id in (${earlier.map(() => '?').join(', ')})`, earlier), lastHeartbeat);
    await this.db('hub_nodes').whereIn('id', earlier).delete();
    return closed;
  }

  /**
   * Renews the node's lease. Answers false when the lease had run out (the node stalled or lost
   * the database longer than the lease): its sessions may have been swept meanwhile, and the
   * hub takes them back (retake).
   */
  async renewNode(nodeId: string, settings: PresenceSettings): Promise<boolean> {
    const renewed = await this.db.raw(
      `update hub_nodes set heartbeat_at = now(), lease_expires_at = now() + make_interval(secs => ?) where id = ? and lease_expires_at > now() returning id`,
      [settings.leaseSeconds, nodeId],
    );
    if ((renewed as { rows: unknown[] }).rows.length > 0) {
      return true;
    }
    await this.startNode(nodeId, settings);
    return false;
  }

  /**
   * Closes every session no live lease holds: of nodes whose lease ran out, and any left
   * without a node; forgets expired nodes that hold nothing any more. Any node may run it at
   * any time. Answers the devices it set offline.
   */
  async sweep(): Promise<number[]> {
    const closed = await this.closeSessions(
      this.db.raw('(hub_node_id is null or not exists (select 1 from hub_nodes n where n.id = devices.hub_node_id and n.lease_expires_at > now()))'),
      lastHeartbeat,
    );
    await this.db.raw('delete from hub_nodes where lease_expires_at <= now() and not exists (select 1 from devices d where d.hub_node_id = hub_nodes.id)');
    return closed;
  }

  /** A node that stops: its remaining sessions closed, its lease given up. */
  async stopNode(nodeId: string): Promise<number[]> {
    const closed = await this.closeSessions(this.db.raw('hub_node_id = ?', [nodeId]), 'now()');
    await this.db('hub_nodes').where('id', nodeId).delete();
    return closed;
  }

  /** The device's session opens for this connection on this node (a session held elsewhere is taken over). */
  async connected(session: DeviceSession): Promise<OpenedSession> {
    const [row] = (await this.db('devices')
      .where('id', session.deviceId)
      .update({
        online: true,
        network_interface: session.networkInterface,
        last_seen_at: new Date(),
        hub_connection_id: session.connectionId,
        hub_node_id: session.nodeId,
        ...(session.version ? { version: session.version } : {}),
      })
      .returning('config')) as { config: { cloudKeepAliveIntervalInSec?: unknown } | null }[];
    await this.recordEvents([{ deviceId: session.deviceId, kind: 'connected', networkInterface: session.networkInterface }]);
    this.pubsub.publish(channels.presence, {
      deviceId: session.deviceId,
      online: true,
      networkInterface: session.networkInterface,
      connectionId: session.connectionId,
    });
    const keepAlive = row?.config?.cloudKeepAliveIntervalInSec;
    const reported = (await this.db('device_reports')
      .where({ device_id: session.deviceId, type: 'config' })
      // Two config reports of one instant (a gateway whose clock did not move between them): the later stored wins.
      .orderBy([
        { column: 'at', order: 'desc' },
        { column: 'received_at', order: 'desc' },
      ])
      .first('body')) as { body: { observations?: { config?: unknown } } } | undefined;
    return {
      keepAliveSeconds: typeof keepAlive === 'number' ? keepAlive : null,
      runningConfig: runningConfigOf(reported?.body.observations?.config) ?? runningConfigOf(row?.config),
    };
  }

  /**
   * connected for several sessions at once (the handshakes of a reconnect storm): one update of
   * the device rows, one insert of their connection events, one read of their last config
   * reports, and each announced on the presence channel as connected announces it. A device
   * named twice is opened twice, in order, so its later session is the one that holds it.
   * Answers one entry per session, in order.
   */
  async connectedMany(sessions: readonly DeviceSession[]): Promise<OpenedSession[]> {
    const answers: OpenedSession[] = [];
    for (const round of roundsOfDistinctDevices(sessions)) {
      answers.push(...(await this.openRound(round)));
    }
    return answers;
  }

  /** Sessions of distinct devices, opened together. */
  private async openRound(sessions: readonly DeviceSession[]): Promise<OpenedSession[]> {
    const document = JSON.stringify(
      sessions.map((session) => ({ i: session.deviceId, n: session.networkInterface, c: session.connectionId, h: session.nodeId, v: session.version })),
    );
    const updated = (await this.db.raw(
      `update devices set online = true, network_interface = s.n, last_seen_at = ?, hub_connection_id = s.c, hub_node_id = s.h, version = coalesce(s.v, devices.version)
       from json_to_recordset(?::json) as s(i bigint, n text, c text, h text, v text)
       where devices.id = s.i
       returning devices.id, devices.config`,
      [new Date(), document],
    )) as { rows: { id: string | number; config: { cloudKeepAliveIntervalInSec?: unknown } | null }[] };
    const configs = new Map(updated.rows.map((row) => [Number(row.id), row.config]));
    await this.recordEvents(sessions.map((session) => ({ deviceId: session.deviceId, kind: 'connected', networkInterface: session.networkInterface })));
    for (const session of sessions) {
      this.pubsub.publish(channels.presence, {
        deviceId: session.deviceId,
        online: true,
        networkInterface: session.networkInterface,
        connectionId: session.connectionId,
      });
    }
    // Each device's last config report, as connected reads it (the later stored wins between two of one instant).
    const reported = (await this.db.raw(
      `select s.i as device_id, r.body from json_to_recordset(?::json) as s(i bigint)
       cross join lateral (
         select body from device_reports where device_id = s.i and type = 'config' order by at desc, received_at desc limit 1
       ) r`,
      [JSON.stringify(sessions.map((session) => ({ i: session.deviceId })))],
    )) as { rows: { device_id: string | number; body: { observations?: { config?: unknown } } }[] };
    const reports = new Map(reported.rows.map((row) => [Number(row.device_id), row.body]));
    return sessions.map((session) => {
      const config = configs.get(session.deviceId);
      const keepAlive = config?.cloudKeepAliveIntervalInSec;
      return {
        keepAliveSeconds: typeof keepAlive === 'number' ? keepAlive : null,
        runningConfig: runningConfigOf(reports.get(session.deviceId)?.observations?.config) ?? runningConfigOf(config),
      };
    });
  }

  /**
   * After the node's lease ran out: the session is this connection's again. 'held' when the
   * device still names this connection, 'retaken' when a sweep had closed it (it is open again
   * and announced), 'lost' when another connection holds the device now.
   */
  async retake(session: DeviceSession): Promise<'held' | 'retaken' | 'lost'> {
    const held = await this.db('devices')
      .where({ id: session.deviceId, hub_connection_id: session.connectionId })
      .update({ online: true, hub_node_id: session.nodeId });
    if (held > 0) {
      return 'held';
    }
    const retaken = await this.db('devices').where('id', session.deviceId).whereNull('hub_connection_id').update({
      online: true,
      network_interface: session.networkInterface,
      hub_connection_id: session.connectionId,
      hub_node_id: session.nodeId,
      last_seen_at: new Date(),
    });
    if (retaken === 0) {
      return 'lost';
    }
    await this.recordEvents([{ deviceId: session.deviceId, kind: 'connected', networkInterface: session.networkInterface }]);
    this.pubsub.publish(channels.presence, {
      deviceId: session.deviceId,
      online: true,
      networkInterface: session.networkInterface,
      connectionId: session.connectionId,
    });
    return 'retaken';
  }

  /** The connection ended: the device goes offline, unless a newer connection (here or on another node) holds it. Answers whether it did. */
  async disconnected(deviceId: number, connectionId: string): Promise<boolean> {
    const closed = await this.closeSessions(this.db.raw('id = ? and hub_connection_id = ?', [deviceId, connectionId]), 'now()');
    return closed.length > 0;
  }

  /**
   * disconnected for several connections at once (a node's gateways dropping together): one
   * update, one insert of connection events. Answers, per connection in order, whether it
   * closed its device's session.
   */
  async disconnectedMany(connections: readonly { deviceId: number; connectionId: string }[]): Promise<boolean[]> {
    if (connections.length === 0) {
      return [];
    }
    const document = JSON.stringify(connections.map((connection) => ({ i: connection.deviceId, c: connection.connectionId })));
    const closed = new Set(
      await this.closeSessions(
        this.db.raw('(id, hub_connection_id) in (select s.i, s.c from json_to_recordset(?::json) as s(i bigint, c text))', [document]),
        'now()',
      ),
    );
    return connections.map((connection) => closed.has(connection.deviceId));
  }

  /**
   * The connection events the device monitors count (disconnect frequency per interface, time
   * offline; docs/operations.md, "Monitors and alarms"): one row per session opened or closed,
   * written where the session opens and closes, so sweeps of dead nodes' sessions count too.
   */
  private async recordEvents(events: { deviceId: number; kind: 'connected' | 'disconnected'; networkInterface: string | null; at?: Date }[]): Promise<void> {
    if (events.length === 0) {
      return;
    }
    await this.db('device_connection_events').insert(
      events.map((event) => ({
        device_id: event.deviceId,
        kind: event.kind,
        network_interface: event.networkInterface,
        ...(event.at ? { at: event.at } : {}),
      })),
    );
  }

  /**
   * Closes the sessions matching `where`, each once, as a disconnect does: offline, no
   * connection, last seen at `lastSeen` (an SQL expression); and tells the presence channel.
   */
  private async closeSessions(where: Knex.Raw, lastSeen: string): Promise<number[]> {
    const result = (await this.db.raw(
      `update devices set online = false, hub_connection_id = null, hub_node_id = null, last_seen_at = ${lastSeen} where online and ? returning id, network_interface, last_seen_at`,
      [where],
    )) as {
      rows: { id: string | number; network_interface: string | null; last_seen_at: Date | null }[];
    };
    const ids = result.rows.map((row) => Number(row.id));
    await this.recordEvents(
      result.rows.map((row) => ({
        deviceId: Number(row.id),
        kind: 'disconnected',
        networkInterface: row.network_interface,
        at: row.last_seen_at ?? undefined,
      })),
    );
    for (const deviceId of ids) {
      this.pubsub.publish(channels.presence, { deviceId, online: false, networkInterface: null });
    }
    return ids;
  }
}
