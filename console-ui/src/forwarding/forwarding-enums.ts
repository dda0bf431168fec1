import type { DestinationKind, MessageType } from '../../../contracts/forwarding';
import type { DestinationKind as GraphqlDestinationKind, MessageType as GraphqlMessageType } from '../graphql/schema-types';

/*
 * The lists of contracts/forwarding.ts as GraphQL spells them (AZURE_SERVICE_BUS for
 * 'azure-service-bus'): the settings form and the texts use the contract's names, the API its enums.
 */

const graphqlKinds: Record<DestinationKind, GraphqlDestinationKind> = {
  mysql: 'MYSQL',
  mssql: 'MSSQL',
  influxdb: 'INFLUXDB',
  postgres: 'POSTGRES',
  amqp: 'AMQP',
  'azure-service-bus': 'AZURE_SERVICE_BUS',
  'grafana-loki': 'GRAFANA_LOKI',
  'aws-simple-notification-service': 'AWS_SIMPLE_NOTIFICATION_SERVICE',
  sftp: 'SFTP',
  ftps: 'FTPS',
  http: 'HTTP',
  kafka: 'KAFKA',
};

const graphqlMessageTypes: Record<MessageType, GraphqlMessageType> = {
  solarPower: 'SOLAR_POWER',
  solarPowerFlash: 'SOLAR_POWER_FLASH',
  windPower: 'WIND_POWER',
  windPowerFlash: 'WIND_POWER_FLASH',
  batteryPower: 'BATTERY_POWER',
  batteryPowerFiltered: 'BATTERY_POWER_FILTERED',
  batteryPowerFlash: 'BATTERY_POWER_FLASH',
  meterPower: 'METER_POWER',
  meterPowerFlash: 'METER_POWER_FLASH',
  evPower: 'EV_POWER',
  generatorPower: 'GENERATOR_POWER',
  alarm: 'ALARM',
};

const inverse = <K extends string, V extends string>(record: Record<K, V>): Record<V, K> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [value, key])) as Record<V, K>;

const kindsOfGraphql = inverse(graphqlKinds);
const messageTypesOfGraphql = inverse(graphqlMessageTypes);

export const graphqlKindOf = (kind: DestinationKind): GraphqlDestinationKind => graphqlKinds[kind];
export const kindOfGraphql = (kind: GraphqlDestinationKind): DestinationKind => kindsOfGraphql[kind];
export const graphqlMessageTypeOf = (type: MessageType): GraphqlMessageType => graphqlMessageTypes[type];
export const messageTypeOfGraphql = (type: GraphqlMessageType): MessageType => messageTypesOfGraphql[type];
