import type { Server } from 'node:http';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { validateReport } from '../contracts/hub/reports';
import type { Services } from '../graph/services';
import { GatewayServer } from './gateway-server';
import { ReportIngest } from './ingest';

/** The device hub of one node: gateway connections, report ingest, and delivery from the outbox. */
export interface DeviceHub {
  gateways: GatewayServer;
  ingest: ReportIngest;
  /** Serves gateways on this HTTP server. */
  attach(server: Server): void;
  /** Closes the gateway connections, then writes what the ingest holds. */
  close(): Promise<void>;
}

export function createDeviceHub({ db, services, log }: { db: Knex; services: Services; log: Logger }): DeviceHub {
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
  return {
    gateways,
    ingest,
    attach: (server) => gateways.attach(server),
    close: async () => {
      await gateways.close();
      await ingest.close();
    },
  };
}
