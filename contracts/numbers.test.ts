import * as yup from 'yup';
import * as apiKey from './api-key';
import * as auditLog from './audit-log';
import * as billing from './billing';
import * as contact from './contact';
import * as device from './device';
import * as deviceGroup from './device-group';
import * as firmware from './firmware';
import * as fleet from './fleet';
import * as issue from './issue';
import * as login from './login';
import * as mail from './mail';
import * as measurement from './measurement';
import * as organization from './organization';
import * as partnership from './partnership';
import * as pricing from './pricing';
import * as provisioning from './provisioning';
import * as user from './user';
import * as userInvite from './user-invite';
import { reportTypes } from './hub/reports';
import { issuesOf } from './validation';

const modules = {
  apiKey,
  auditLog,
  billing,
  contact,
  device,
  deviceGroup,
  firmware,
  fleet,
  issue,
  login,
  mail,
  measurement,
  organization,
  partnership,
  pricing,
  provisioning,
  user,
  userInvite,
};

/** What a yup schema is made of, as far as walking it needs. */
interface Walkable {
  type: string;
  fields?: Record<string, unknown>;
  innerType?: unknown;
  spec?: { types?: unknown[] };
  variants?: Record<string, unknown>;
  builder?: (value: unknown, options: object) => unknown;
}

/** Values that make the plain lazies of the contracts (not tagged unions) show each schema they may be. */
const lazyProbes: unknown[] = [undefined, null, 0, 'text', [], {}];

/** How many number fields the walk met, so the test fails if it stops reaching them. */
let numbersMet = 0;

/** Every number field reachable from `schema` that lacks a lower or an upper bound, by path. */
function unbounded(schema: unknown, path: string, seen: Set<unknown>): string[] {
  if (seen.has(schema) || typeof schema !== 'object' || schema === null) {
    return [];
  }
  seen.add(schema);
  const walkable = schema as Walkable;
  if (walkable.type === 'lazy') {
    const variants = walkable.variants ? Object.values(walkable.variants) : lazyProbes.map((probe) => walkable.builder?.(probe, {}));
    return [...new Set(variants.flatMap((variant) => unbounded(variant, path, seen)))];
  }
  if (walkable.type === 'number') {
    numbersMet += 1;
    const description = (schema as yup.Schema).describe() as { tests: { name?: string }[]; oneOf: unknown[] };
    const names = new Set(description.tests.map((test) => test.name));
    const bounded = description.oneOf.length > 0 || ((names.has('min') || names.has('moreThan')) && (names.has('max') || names.has('lessThan')));
    return bounded ? [] : [path];
  }
  const fields = Object.entries(walkable.fields ?? {}).flatMap(([name, field]) => unbounded(field, path ? `${path}.${name}` : name, seen));
  const inner = [walkable.innerType, ...(walkable.type === 'tuple' ? (walkable.spec?.types ?? []) : [])];
  return [...fields, ...inner.flatMap((item) => unbounded(item, `${path}[]`, seen))];
}

describe('numbers the contracts accept', () => {
  it('all have a lower and an upper bound (answers excepted: they are what Gridport sends, and the firmware message answer)', () => {
    const found = Object.entries(modules).flatMap(([module, exports]) =>
      Object.entries(exports as Record<string, unknown>)
        .filter(
          ([name, value]) =>
            (yup.isSchema(value) || (value as Walkable | null)?.type === 'lazy') &&
            !/(Response|View|Result|Row|Page)Schema$|^(steeringResultSchema|messageSentSchema)$/.test(name),
        )
        .flatMap(([name, value]) => unbounded(value, '', new Set()).map((path) => `${module}.${name}:${path}`)),
    );
    expect(found).toEqual([]);
    expect(numbersMet).toBeGreaterThanOrEqual(1000);
  });
});

describe('number bounds, case by case', () => {
  const twoTo53PlusOne = 2 ** 53 + 1;
  const subscription = { usage: false, chargePeriod: 12, runtime: 36, afterExpiration: null, startAt: '2026-01-01T00:00:00Z' };
  const withAsset = (patch: Record<string, unknown>) => ({
    ...device.exampleDeviceConfig,
    assets: [{ ...device.exampleDeviceConfig.assets[0], ...patch }, ...device.exampleDeviceConfig.assets.slice(1)],
  });
  const cases: { name: string; schema: Parameters<typeof issuesOf>[0]; value: unknown; issues: { path: string; message: string }[] }[] = [
    { name: 'a subscription of 36 months', schema: fleet.subscriptionSchema, value: subscription, issues: [] },
    {
      name: 'a runtime of 1e308 months',
      schema: fleet.subscriptionSchema,
      value: { ...subscription, runtime: 1e308 },
      issues: [{ path: 'runtime', message: 'runtime must be less than or equal to 1200' }],
    },
    {
      name: 'a charge period of 2^53 + 1 months',
      schema: fleet.subscriptionSchema,
      value: { ...subscription, chargePeriod: twoTo53PlusOne },
      issues: [{ path: 'chargePeriod', message: 'chargePeriod must be less than or equal to 1200' }],
    },
    { name: 'a runtime of 100 years', schema: fleet.subscriptionSchema, value: { ...subscription, runtime: 1200 }, issues: [] },
    {
      name: 'a runtime of 1.5 months',
      schema: fleet.subscriptionSchema,
      value: { ...subscription, runtime: 1.5 },
      issues: [{ path: 'runtime', message: 'runtime must be an integer' }],
    },
    {
      name: 'organisation defaults of 1e308 months',
      schema: organization.subscriptionDefaultsSchema,
      value: { chargePeriod: 1e308, runtime: 1 },
      issues: [{ path: 'chargePeriod', message: 'chargePeriod must be less than or equal to 1200' }],
    },
    {
      name: 'a contact id of 2^53 + 1',
      schema: contact.contactIdParams,
      value: { contactId: String(twoTo53PlusOne) },
      issues: [{ path: 'contactId', message: `contactId must be less than or equal to ${Number.MAX_SAFE_INTEGER}` }],
    },
    {
      name: 'a contact id of Infinity',
      schema: contact.contactIdParams,
      value: { contactId: 'Infinity' },
      issues: [
        { path: 'contactId', message: 'contactId must be an integer' },
        { path: 'contactId', message: `contactId must be less than or equal to ${Number.MAX_SAFE_INTEGER}` },
      ],
    },
    { name: 'the largest exact contact id', schema: contact.contactIdParams, value: { contactId: String(Number.MAX_SAFE_INTEGER) }, issues: [] },
    {
      name: 'a tier discount of 150 %',
      schema: pricing.tierSchema,
      value: { volume: 10, discount: 150 },
      issues: [{ path: 'discount', message: 'Tier discount is a percentage, at most 100' }],
    },
    {
      name: 'a tier volume of 1e308',
      schema: pricing.tierSchema,
      value: { volume: 1e308, discount: 5 },
      issues: [{ path: 'volume', message: 'volume must be less than or equal to 1000000000000000' }],
    },
    {
      name: 'measurements for asset index 1e9',
      schema: measurement.measurementQuerySchema,
      value: { hashId: 'd1', field: 'activePower', reportType: reportTypes[0], assetIndex: 1e9, from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' },
      issues: [{ path: 'assetIndex', message: 'assetIndex must be less than or equal to 9999' }],
    },
    { name: 'the example config', schema: device.deviceConfigSchema, value: device.exampleDeviceConfig, issues: [] },
    {
      name: 'an asset of 1e308 W',
      schema: device.deviceConfigSchema,
      value: withAsset({ nominalActivePower: 1e308 }),
      issues: [{ path: 'assets[0].nominalActivePower', message: 'assets[0].nominalActivePower must be less than or equal to 1000000000000000' }],
    },
    {
      name: 'a Modbus timeout of 2^53 + 1 ms',
      schema: device.deviceConfigSchema,
      value: withAsset({ timeout: twoTo53PlusOne }),
      issues: [{ path: 'assets[0].timeout', message: 'assets[0].timeout must be less than or equal to 3600000' }],
    },
    {
      name: 'a power meter at asset index 2^53 + 1',
      schema: device.deviceConfigSchema,
      value: withAsset({ powerMeterAssetIndex: twoTo53PlusOne }),
      issues: [
        { path: 'assets[0].powerMeterAssetIndex', message: 'assets[0].powerMeterAssetIndex must be less than or equal to 9999' },
        { path: 'assets[0].powerMeterAssetIndex', message: 'assets[0].powerMeterAssetIndex must be the index of an asset in assets' },
      ],
    },
    {
      name: 'a reporting interval of 1e308 s',
      schema: device.deviceConfigSchema,
      value: { ...device.exampleDeviceConfig, reportingIntervalInSec: 1e308 },
      issues: [{ path: 'reportingIntervalInSec', message: 'reportingIntervalInSec must be less than or equal to 86400' }],
    },
  ];
  it.each(cases)('$name', ({ schema, value, issues }) => {
    expect(issuesOf(schema, value)).toEqual(issues);
  });
});
