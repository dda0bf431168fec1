import type { Server } from 'node:http';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { validateReport } from '../contracts/hub/reports';
import type { Services } from '../graph/services';
import { GatewayServer } from './gateway-server';
import { ReportIngest } from './ingest';
import { defaultHistorySettings, ReportHistoryJob, type HistorySettings } from './rollups';
import { TunnelServer } from './tunnels';

/** The device hub of one node: gateway connections, report ingest, and delivery from the outbox. */
export interface DeviceHub {
  gateways: GatewayServer;
  /** The device's end of TCP tunnels (the developer's end is server/developer-channel.ts). */
  tunnels: TunnelServer;
  ingest: ReportIngest;
  /** Report partitions, roll-ups and retention, in the background. */
  history: ReportHistoryJob;
  /** Serves gateways on this HTTP server. */
  attach(server: Server): void;
  /** Closes the gateway connections, then writes what the ingest holds, then stops the history job. */
  close(): Promise<void>;
}

export function createDeviceHub({ db, services, log, history = defaultHistorySettings }: { db: Knex; services: Services; log: Logger; history?: HistorySettings }): DeviceHub {
  const historyJob = new ReportHistoryJob(db, history, log);
  // The first round (this month's partitions first) runs now, in the background; it logs its own failures.
  void historyJob.start();
  const ingest = new ReportIngest(db, services.pubsub);
  const gateways = new GatewayServer({
    db,
    log,
    pubsub: services.pubsub,
    outbox: services.deviceOutbox,
    ingest,
    verifyCertificate: (pem) => services.provisioning.verifyDeviceCertificate(pem),
    validateReport,
  });
  const tunnels = new TunnelServer({ pubsub: services.pubsub, log, verifyCertificate: (pem) => services.provisioning.verifyDeviceCertificate(pem) });
  return {
    gateways,
    tunnels,
    ingest,
    history: historyJob,
    attach: (server) => {
      gateways.attach(server);
      tunnels.attach(server);
    },
    close: async () => {
      await gateways.close();
      await tunnels.close();
      await ingest.close();
      await historyJob.stop();
    },
  };
}
