import { exampleDeviceConfig } from '../contracts/device';
import { validate } from '../contracts/validation';
import { organizationCreateSchema } from '../contracts/organization';
import { userCreateSchema } from '../contracts/user';
import { systemActor } from '../graph/common/context';
import type { Services } from '../graph/services';
import { staffWriterRights } from '../contracts/rights';

/** The demo fleet's organisation; its presence means the fleet was made. */
export const demoOrganizationName = 'Demo Energy BV';

/** The demo's sign-ins (embedded default only; GRIDPORT_DEMO=false makes none): a customer of the demo organisation, and staff through SAML (the development identity provider signs any staff user in). */
export const demoSignIns = {
  customer: { email: 'demo@gridport.example', password: 'gridport-demo-2026', name: 'Demo Customer' },
  staff: { email: 'staff@gridport.example', name: 'Demo Staff' },
} as const;

export interface DemoFleet {
  created: boolean;
  organizationHashId: string;
  deviceHashIds: string[];
}

/**
 * The demo devices' names, one per demo site in the order of `demoSiteStarters`
 * (server/demo-gateways.ts): wind, solar with a battery, EV charging, and a site of real device
 * families (a Janitza meter, a Huawei inverter, an SMA battery).
 */
export const demoDeviceNames = ['Windpark Zuid', 'Solar Farm Noord', 'Laadplein Oost', 'Bedrijfshal West'] as const;

/**
 * With GRIDPORT_DEMO on (the embedded default), a first start makes a demo fleet so that a
 * newcomer has something to look at: an organisation, a device group and four devices, exposed
 * to the customer and steerable, made with the example configuration (every asset category,
 * every control loop) until their gateways start (server/demo-gateways.ts) and give each the
 * config of its simulated site. Later starts find it and leave its devices as they are (renamed
 * or reconfigured); a fleet made before a demo site existed (a data folder from before the
 * real-family site has three devices) gets the devices it lacks, at the end of the list, so
 * every demo site has its device.
 */
export async function ensureDemoFleet(services: Services): Promise<DemoFleet> {
  const actor = systemActor('demo fleet');
  const named = await services.organizations.list(actor, { filter: demoOrganizationName, rowsPerPage: 50 });
  const existing = named.rows.find((row) => row.name === demoOrganizationName);
  if (existing) {
    await ensureDemoUsers(services, existing.hashId);
    const page = await services.devices.list(actor, { filter: '', organizationHashId: existing.hashId, rowsPerPage: 50 });
    const deviceHashIds = page.rows.map((row) => row.hashId).reverse();
    const missing = demoDeviceNames.slice(deviceHashIds.length);
    if (missing.length > 0) {
      const groupHashId = page.rows[0]?.deviceGroupHashId ?? (await demoGroup(services, existing.hashId));
      for (const name of missing) {
        deviceHashIds.push(await shipDemoDevice(services, existing.hashId, groupHashId, name));
      }
    }
    return { created: false, organizationHashId: existing.hashId, deviceHashIds };
  }
  const organization = await services.organizations.create(
    actor,
    validate(organizationCreateSchema, { name: demoOrganizationName, type: 'asset-owner' }, 'payload_invalid'),
  );
  const groupHashId = await demoGroup(services, organization.hashId);
  const deviceHashIds: string[] = [];
  for (const name of demoDeviceNames) {
    deviceHashIds.push(await shipDemoDevice(services, organization.hashId, groupHashId, name));
  }
  await ensureDemoUsers(services, organization.hashId);
  return { created: true, organizationHashId: organization.hashId, deviceHashIds };
}

/** The demo's device group. */
async function demoGroup(services: Services, organizationHashId: string): Promise<string> {
  const group = await services.deviceGroups.create(systemActor('demo fleet'), {
    name: 'Demo sites',
    organizationHashId,
    deviceOutageEmails: [],
    deviceOutageUsersHashIds: [],
  });
  return group.hashId;
}

/** A demo device: shipped into the group, exposed and steerable, with the example configuration until its gateway starts. */
async function shipDemoDevice(services: Services, organizationHashId: string, deviceGroupHashId: string, name: string): Promise<string> {
  const actor = systemActor('demo fleet');
  const { hashId } = await services.devices.ship(actor, { organizationHashId, name, deviceGroupHashId });
  await services.devices.update(actor, hashId, { config: structuredClone(exampleDeviceConfig), isExposedToCustomer: true, cloudApi: 'READ_WRITE' });
  return hashId;
}

/** The demo's sign-ins, made when missing (a data folder from before they existed gets them too). */
async function ensureDemoUsers(services: Services, organizationHashId: string): Promise<void> {
  const actor = systemActor('demo fleet');
  const { customer, staff } = demoSignIns;
  const provider = await services.organizations.provider();
  const wanted = [
    { organizationHashId, name: customer.name, email: customer.email, rights: ['customer.write'], password: customer.password },
    { organizationHashId: provider.hashId, name: staff.name, email: staff.email, rights: [...staffWriterRights, 'gridport.employee'] },
  ];
  for (const user of wanted) {
    const found = await services.users.list(actor, { filter: user.email, rowsPerPage: 1 });
    if (!found.rows.some((row) => row.email === user.email)) {
      await services.users.create(actor, validate(userCreateSchema, user, 'payload_invalid'));
    }
  }
}
