import type { DestinationKind } from '../../contracts/forwarding';
import type { PeerStarter } from './peer';
import { mysqlPeer } from './mysql';
import { mssqlPeer } from './mssql';
import { influxdbPeer } from './influxdb';
import { postgresPeer } from './postgres';
import { amqpPeer } from './amqp';
import { azureServiceBusPeer } from './azure-service-bus';
import { grafanaLokiPeer } from './grafana-loki';
import { snsPeer } from './sns';
import { sftpPeer } from './sftp';
import { ftpsPeer } from './ftps';
import { httpPeer } from './http';
import { kafkaPeer } from './kafka';

/** A real (or protocol-speaking) peer of each kind, for the forwarding tests. */
export const forwardingPeers: Record<DestinationKind, PeerStarter> = {
  mysql: mysqlPeer,
  mssql: mssqlPeer,
  influxdb: influxdbPeer,
  postgres: postgresPeer,
  amqp: amqpPeer,
  'azure-service-bus': azureServiceBusPeer,
  'grafana-loki': grafanaLokiPeer,
  'aws-simple-notification-service': snsPeer,
  sftp: sftpPeer,
  ftps: ftpsPeer,
  http: httpPeer,
  kafka: kafkaPeer,
};
