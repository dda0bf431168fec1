import type { DestinationKind } from '../../../contracts/forwarding';
import type { DelivererFactory } from './deliverer';
import { mysqlDeliverer } from './mysql';
import { mssqlDeliverer } from './mssql';
import { influxdbDeliverer } from './influxdb';
import { postgresDeliverer } from './postgres';
import { amqpDeliverer } from './amqp';
import { azureServiceBusDeliverer } from './azure-service-bus';
import { grafanaLokiDeliverer } from './grafana-loki';
import { snsDeliverer } from './sns';
import { sftpDeliverer } from './sftp';
import { ftpsDeliverer } from './ftps';
import { httpDeliverer } from './http';
import { kafkaDeliverer } from './kafka';

/** The deliverer of each kind (docs/forwarding.md, "Kinds"). */
export const deliverers: { [K in DestinationKind]: DelivererFactory<K> } = {
  mysql: mysqlDeliverer,
  mssql: mssqlDeliverer,
  influxdb: influxdbDeliverer,
  postgres: postgresDeliverer,
  amqp: amqpDeliverer,
  'azure-service-bus': azureServiceBusDeliverer,
  'grafana-loki': grafanaLokiDeliverer,
  'aws-simple-notification-service': snsDeliverer,
  sftp: sftpDeliverer,
  ftps: ftpsDeliverer,
  http: httpDeliverer,
  kafka: kafkaDeliverer,
};
