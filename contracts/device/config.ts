import * as yup from 'yup';
import { integer, numberLimits, quantity } from '../numbers';
import { categoryOfType, type AssetCategory } from './asset-types';
import { assetSchema } from './assets';
import { cloudToDeviceCommandSchemas } from './commands';
import { ipv4Schema, portSchema } from './connection';
import { controlLoopSchema, modbusPortsUniqueMessage } from './control-loops';
import { fieldOf, joinPath, validationMessages, taggedUnion, timeWindowSchema, uniqueBy } from './time-window';
import { issuesOf } from '../validation';

/** Limits of the config (device-model.md sections 5, 9). */
export const configLimits = {
  reportingIntervalMinSec: 4,
  cloudKeepAliveMinSec: 5,
  cloudKeepAliveMaxSec: 60,
  routingPrefixMax: 32,
} as const;

/** A Linux route metric: an unsigned 32-bit number. */
const metric = integer().min(0).max(4_294_967_295);

/** A static address of an Ethernet interface: ip, routingPrefix 0-32 and an optional gateway (section 3.1). */
export const staticInterfaceSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['static'] as const)
      .required(),
    ip: ipv4Schema.required(),
    routingPrefix: integer().min(0).max(configLimits.routingPrefixMax).required(),
    gateway: ipv4Schema.optional(),
  })
  .exact();

/** An address by DHCP (section 3.1). */
export const dhcpInterfaceSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['dhcp'] as const)
      .required(),
  })
  .exact();

const disabledInterface = yup.mixed<never>().nullable();
const interfaceUnion = taggedUnion({ dhcp: dhcpInterfaceSchema, static: staticInterfaceSchema });

/** eth0 or eth1 (section 3.1): `{ type: 'dhcp' }`, `{ type: 'static', ... }`, or null (interface off). */
export const ethernetInterfaceSchema = yup.lazy((value: unknown) => (value === null || value === undefined ? disabledInterface : interfaceUnion));

/** The gateway's network (device-model.md section 3.1). Metrics are route metrics (lower is preferred). */
export const networkSchema = yup
  .object({
    cellular: yup
      .object({ apn: yup.string().trim().min(1).max(100).required(), routeMetric: metric.optional() })
      .exact()
      .nullable()
      .default(undefined),
    eth0: ethernetInterfaceSchema,
    eth1: ethernetInterfaceSchema,
    dns: yup
      .object({
        servers: yup.array(ipv4Schema.required()).max(10).default([]),
        ignoreAuto: yup.boolean().default(false),
        priority: integer().optional(),
      })
      .exact()
      .default(undefined),
    routeMetric: metric.optional(),
    routeData: yup
      .array(
        yup
          .object({
            dest: ipv4Schema.required(),
            prefix: integer().min(0).max(configLimits.routingPrefixMax).default(32),
            nextHop: ipv4Schema.required(),
            metric: metric.optional(),
          })
          .exact(),
      )
      .default([]),
  })
  .exact();

/** A secret: a plain string, or encrypted as iv, encryptedData and tag (section 3.1; AES-GCM by our reading). */
export const secretSchema = yup.lazy((value: unknown) =>
  value !== null && typeof value === 'object'
    ? yup
        .object({
          iv: yup.string().required(),
          encryptedData: yup.string().required(),
          tag: yup.string().required(),
        })
        .exact()
        .required()
    : yup.string().required(),
);

/** The OpenVPN link to the platform (section 3.1): host, port (default 1194) and credentials. */
export const vpnSchema = yup
  .object({
    // A host name or an IP address, nothing else: the gateway writes it into openvpn's config, where a space or a line break would start another directive.
    host: yup
      .string()
      .trim()
      .min(1)
      .max(255)
      .matches(/^[A-Za-z0-9._:-]+$/, '${path} must be a host name or an IP address')
      .required(),
    port: portSchema.default(1194),
    credentials: yup
      .object({
        ca: secretSchema,
        cert: secretSchema,
        key: secretSchema,
        tlsCrypt: yup.lazy((value: unknown) => (value === undefined ? yup.mixed<never>() : secretSchema)),
      })
      .exact()
      .default(undefined)
      .required(),
  })
  .exact()
  .default(undefined);

interface Issue {
  path: string;
  message: string;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The index fields of a loop that name assets: *AssetIndex (one) and *AssetIndices / assetIndices (a list). */
function loopReferences(loop: Record<string, unknown>, path: string, into: { path: string; index: unknown }[]): void {
  for (const [key, value] of Object.entries(loop)) {
    if (key.endsWith('AssetIndex')) {
      into.push({ path: `${path}.${key}`, index: value });
    } else if ((key.endsWith('AssetIndices') || key === 'assetIndices') && Array.isArray(value)) {
      value.forEach((index, at) => into.push({ path: `${path}.${key}[${at}]`, index }));
    }
  }
  const topology = asRecord(loop.topology);
  if (topology !== undefined) {
    topologyReferences(topology, `${path}.topology`, into);
  }
}

function topologyReferences(node: Record<string, unknown>, path: string, into: { path: string; index: unknown }[]): void {
  const assets = asRecord(node.assets);
  const controllable = assets?.controllable;
  if (Array.isArray(controllable)) {
    controllable.forEach((index, at) => into.push({ path: `${path}.assets.controllable[${at}]`, index }));
  }
  const meters = assets?.powerMeterable;
  if (Array.isArray(meters)) {
    meters.forEach((meter, at) => into.push({ path: `${path}.assets.powerMeterable[${at}].assetIndex`, index: asRecord(meter)?.assetIndex }));
  }
  if (Array.isArray(node.children)) {
    node.children.forEach((child, at) => {
      const record = asRecord(child);
      if (record !== undefined) {
        topologyReferences(record, `${path}.children[${at}]`, into);
      }
    });
  }
}

const sensorCategoryOfKind: Record<string, AssetCategory> = {
  irradiance: 'irradianceSensor',
  temperature: 'temperatureSensor',
  wind: 'windSensor',
};

/**
 * The asset references of a config that point nowhere or at the wrong kind of asset: loop
 * indices, optimizer topology indices, powerMeterAssetIndex (a meter) and environmentalSensors
 * (a sensor of the kind).
 */
function referenceIssues(config: Record<string, unknown>, root: string): Issue[] {
  const assets = Array.isArray(config.assets) ? config.assets : [];
  const categories = assets.map((asset) => {
    const type = asRecord(asset)?.type;
    return typeof type === 'string' ? categoryOfType(type) : undefined;
  });
  const issues: Issue[] = [];
  const check = (path: string, index: unknown, category?: AssetCategory) => {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
      return;
    }
    if (index >= assets.length) {
      issues.push({ path, message: `${path} must be the index of an asset in assets` });
    } else if (category !== undefined && categories[index] !== category) {
      issues.push({ path, message: `${path} must be the index of a ${category} asset` });
    }
  };
  assets.forEach((raw, at) => {
    const asset = asRecord(raw);
    if (asset === undefined) {
      return;
    }
    const path = joinPath(root, `assets[${at}]`);
    check(`${path}.powerMeterAssetIndex`, asset.powerMeterAssetIndex, 'meter');
    if (Array.isArray(asset.environmentalSensors)) {
      asset.environmentalSensors.forEach((sensor, sensorAt) => {
        const record = asRecord(sensor);
        const kind = record?.kind;
        check(`${path}.environmentalSensors[${sensorAt}].assetIndex`, record?.assetIndex, typeof kind === 'string' ? sensorCategoryOfKind[kind] : undefined);
      });
    }
  });
  const loops = Array.isArray(config.activeControl) ? config.activeControl : [];
  const references: { path: string; index: unknown }[] = [];
  loops.forEach((loop, at) => {
    const record = asRecord(loop);
    if (record !== undefined) {
      loopReferences(record, joinPath(root, `activeControl[${at}]`), references);
    }
  });
  for (const reference of references) {
    check(reference.path, reference.index);
  }
  return issues;
}

/**
 * Device configuration, version 2 (device-model.md section 3.1). Asset and loop identifiers are
 * each unique ("Ids must be unique"), and every asset index a loop or asset names exists.
 * reportingIntervalInSec (min 4) has no default in the spec and none here: the console proposes one.
 */
export const deviceConfigSchema = yup
  .object({
    network: networkSchema.default(undefined).required(),
    assets: uniqueBy(yup.array(assetSchema).required(), validationMessages.idsUnique, fieldOf('identifier'), 'identifier'),
    reportingIntervalInSec: quantity().min(configLimits.reportingIntervalMinSec).max(numberLimits.durationSecondsMax).required(),
    cloudKeepAliveIntervalInSec: quantity().min(configLimits.cloudKeepAliveMinSec).max(configLimits.cloudKeepAliveMaxSec).optional(),
    activeControl: uniqueBy(
      uniqueBy(yup.array(controlLoopSchema).default([]), validationMessages.idsUnique, fieldOf('identifier'), 'identifier'),
      modbusPortsUniqueMessage,
      fieldOf('port'),
      'port',
    ),
    maintenanceWindow: timeWindowSchema.default(undefined),
    vpn: vpnSchema,
  })
  .exact()
  .test('asset-references', '', function check(value: unknown) {
    const config = asRecord(value);
    if (config === undefined) {
      return true;
    }
    const issues = referenceIssues(config, this.path ?? '');
    if (issues.length === 0) {
      return true;
    }
    return new yup.ValidationError(issues.map((issue) => this.createError(issue)));
  });
export type DeviceConfig = yup.InferType<typeof deviceConfigSchema>;

/** Every issue of a config as { path, message }; empty when the config is valid. */
export function configIssues(config: unknown): { path: string; message: string }[] {
  return issuesOf(deviceConfigSchema, config);
}

/** The config with its defaults applied; throws the yup ValidationError (every issue) when it is invalid. */
export function parseDeviceConfig(value: unknown): DeviceConfig {
  return deviceConfigSchema.validateSync(value, { abortEarly: false });
}

/** setConfig: the config a device is to run (device-model.md section 3.10). */
export const setConfigMessageSchema = yup
  .object({
    type: yup
      .string()
      .oneOf(['setConfig'] as const)
      .required(),
    config: deviceConfigSchema.default(undefined).required(),
  })
  .exact();

/** A cloud-to-device message, tagged by `type` (device-model.md section 3.10). */
export const cloudToDeviceMessageSchema = taggedUnion({ setConfig: setConfigMessageSchema, ...cloudToDeviceCommandSchemas });
export type CloudToDeviceMessage = yup.InferType<typeof cloudToDeviceMessageSchema>;
