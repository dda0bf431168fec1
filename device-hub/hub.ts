import type { Server } from 'node:http';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { validateReport } from '../contracts/hub/reports';
import { defaultPresenceSettings, type PresenceSettings } from '../graph/fleet/services/device-presence.service';
import type { Services } from '../graph/services';
import { Batcher } from '../graph/common/batcher';
import { GatewayServer, handshakeBatching } from './gateway-server';
import { ReportIngest } from './ingest';
import type { ReconnectThrottleSettings, SharedRedis } from './reconnect-throttle';
import { NodePresence } from './presence';
import { ReportHistoryJob } from './rollups';
import { defaultHistorySettings, type HistorySettings } from '../contracts/history';
import { TunnelServer } from './tunnels';
import { MonitorEvaluator } from '../graph/operations/services/monitor-evaluator';
import { channels } from '../graph/common/pubsub';
import { defaultMonitorSweepSettings, MonitorSweep, type MonitorSweepSettings } from '../graph/operations/services/monitor-sweep';
import { noMetrics, type NodeMetrics } from '../graph/common/metrics';

/** The device hub of one node: gateway connections, report ingest, and delivery from the outbox. */
export interface DeviceHub {
  gateways: GatewayServer;
  /** The device's end of TCP tunnels (the developer's end is server/developer-channel.ts). */
  tunnels: TunnelServer;
  ingest: ReportIngest;
  /** This node's lease on presence, and its sweeps of dead nodes' sessions. */
  node: NodePresence;
  /** Report partitions, roll-ups and retention, in the background. */
  history: ReportHistoryJob;
  /** The monitors: reports evaluated as their batches commit, and the leased sweep of time-based conditions; null when off. */
  monitors: { evaluator: MonitorEvaluator; sweep: MonitorSweep } | null;
  /** Serves gateways on this HTTP server. */
  attach(server: Server): void;
  /** Closes the gateway connections, then writes what the ingest holds, then stops the history job. */
  close(): Promise<void>;
}

export function createDeviceHub({
  db,
  services,
  log,
  history = defaultHistorySettings,
  presence = defaultPresenceSettings,
  monitors = defaultMonitorSweepSettings,
  metrics = noMetrics,
  reconnectThrottle,
  redis = null,
}: {
  db: Knex;
  services: Services;
  log: Logger;
  history?: HistorySettings;
  /** Node lease and heartbeat (HUB_LEASE_SECONDS, HUB_HEARTBEAT_SECONDS). */
  presence?: PresenceSettings;
  /** The monitors' sweep (MONITOR_SWEEP_SECONDS); false runs no monitors on this hub (benchmarks measure both). */
  monitors?: MonitorSweepSettings | false;
  /** This node's metrics (server/metrics.ts): ingest batches and monitor evaluations are counted there. */
  metrics?: NodeMetrics;
  /** Connections per device and window (hubLimits unless given). */
  reconnectThrottle?: ReconnectThrottleSettings;
  /** The Redis the nodes share (REDIS_URL; the pub/sub's): a device's reconnects are counted there, across nodes; null: on this node. */
  redis?: SharedRedis | null;
}): DeviceHub {
  const historyJob = new ReportHistoryJob(db, history, log);
  // The first round (this month's partitions first) runs now, in the background; it logs its own failures.
  void historyJob.start();
  const evaluator = monitors === false ? null : new MonitorEvaluator(db, services.alarms, log, metrics);
  const sweep = monitors === false ? null : new MonitorSweep(db, services.alarms, monitors, log, metrics);
  sweep?.start();
  const ingest = new ReportIngest(
    db,
    services.pubsub,
    (reports) => {
      services.messagesFromDevice.reportsStored(reports);
      evaluator?.evaluate(reports);
    },
    metrics,
  );
  // A device that connects (here or on another node), or whose saved config changed (a setConfig
  // queued, which closed the alarms the config left without a subject), is taken up afresh from
  // its config and open alarms at its next report here.
  const stopForgetting = evaluator
    ? [
        services.pubsub.subscribe(channels.presence, (message) => {
          const deviceId = (message as { deviceId?: unknown; online?: unknown }).deviceId;
          if (typeof deviceId === 'number' && (message as { online?: unknown }).online === true) {
            evaluator.forget(deviceId);
          }
        }),
        services.pubsub.subscribe(channels.outbox, (message) => {
          const { deviceId, type } = message as { deviceId?: unknown; type?: unknown };
          if (typeof deviceId === 'number' && type === 'setConfig') {
            evaluator.forget(deviceId);
          }
        }),
      ]
    : [];
  // The lease is taken at once; a lease found run out takes the sessions held here back.
  // Certificates of handshakes arriving together are checked with one device lookup (a reconnect storm).
  const certificates = new Batcher((pems: string[]) => services.provisioning.verifyDeviceCertificates(pems), handshakeBatching);
  const verifyCertificate = (pem: string) => certificates.submit(pem);
  const node: NodePresence = new NodePresence(services.devicePresence, presence, log, () => gateways.retakeAll());
  const gateways: GatewayServer = new GatewayServer({
    log,
    pubsub: services.pubsub,
    outbox: services.deviceOutbox,
    presence: services.devicePresence,
    node,
    ingest,
    messagesFromDevice: services.messagesFromDevice,
    verifyCertificate,
    readCertificate: (pem) => services.provisioning.readCertificate(pem),
    validateReport,
    ...(reconnectThrottle ? { reconnectThrottle } : {}),
    redis,
  });
  const tunnels = new TunnelServer({ pubsub: services.pubsub, log, verifyCertificate });
  return {
    gateways,
    tunnels,
    ingest,
    node,
    history: historyJob,
    monitors: evaluator && sweep ? { evaluator, sweep } : null,
    attach: (server) => {
      node.attach(server);
      gateways.attach(server);
      tunnels.attach(server);
    },
    close: async () => {
      await gateways.close();
      await node.stop();
      await tunnels.close();
      await ingest.close();
      stopForgetting.forEach((stop) => stop());
      await evaluator?.close();
      await services.messagesFromDevice.idle();
      await sweep?.stop();
      // Customer messages of alarms just opened go out before the mail transport closes.
      await services.alarms.settled();
      await historyJob.stop();
    },
  };
}
