import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import {
  adminDeviceListQuerySchema,
  customerDeviceListQuerySchema,
  customerDeviceUpdateSchema,
  deviceInvoiceDetailsSchema,
  devicePageSchema,
  deviceCountViewSchema,
  deviceUpdateSchema,
  deviceViewSchema,
} from '../../contracts/fleet';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const admin = '/console-admin/v1/device';
const customer = '/console/v1/device';

/** Devices in the admin console and the customer console (console.md section 7). */
export function deviceRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: admin,
    summary: 'List devices, newest first, with the admin filters',
    tags: ['device'],
    ...access('device.list'),
    query: adminDeviceListQuerySchema,
    response: devicePageSchema,
    handler: ({ actor, query }) => services.devices.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${admin}/:hashId`,
    summary: 'Get a device with every field',
    tags: ['device'],
    ...access('device.read'),
    params: hashIdParams,
    response: deviceViewSchema,
    handler: ({ actor, params }) => services.devices.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${admin}/:hashId`,
    summary: 'Update a device: config (checked, queued for the device), group, organisation, exposure, production and the rest',
    tags: ['device'],
    ...access('device.update'),
    params: hashIdParams,
    body: deviceUpdateSchema,
    response: deviceViewSchema,
    handler: ({ actor, params, body }) => services.devices.update(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${admin}/:hashId/provisioning-token`,
    summary: 'Open a device for provisioning again: a new one-time token, shown only in this answer',
    tags: ['device'],
    ...access('device.reopenProvisioning'),
    params: hashIdParams,
    status: 201,
    response: yup.object({ hashId: yup.string().required(), provisioningToken: yup.string().required() }),
    handler: ({ actor, params }) => services.devices.reopenProvisioning(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${admin}/:hashId/invoice-details`,
    summary: "Update a device's invoice details (Ops and Sales)",
    tags: ['device'],
    ...access('device.updateInvoiceDetails'),
    params: hashIdParams,
    body: deviceInvoiceDetailsSchema,
    response: deviceViewSchema,
    handler: ({ actor, params, body }) => services.devices.updateInvoiceDetails(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: customer,
    summary: 'List the devices the caller may see, optionally by status, with how many match',
    tags: ['device'],
    ...access('device.listVisible'),
    query: customerDeviceListQuerySchema,
    response: devicePageSchema.shape({ count: yup.number().required() }),
    handler: ({ actor, query }) => services.devices.customerList(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${customer}/count`,
    summary: 'How many devices the caller may see: in all, operational and inactive',
    tags: ['device'],
    ...access('device.count'),
    response: deviceCountViewSchema,
    handler: ({ actor }) => services.devices.count(actor),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${customer}/:hashId`,
    summary: 'Get a device the caller may see',
    tags: ['device'],
    ...access('device.readVisible'),
    params: hashIdParams,
    response: deviceViewSchema,
    handler: ({ actor, params }) => services.devices.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${customer}/:hashId`,
    summary: "Add and remove a device's outage emails and users; each user must be able to see the device",
    tags: ['device'],
    ...access('device.updateOutageContacts'),
    params: hashIdParams,
    body: customerDeviceUpdateSchema,
    response: deviceViewSchema,
    handler: ({ actor, params, body }) => services.devices.updateOutageContacts(actor, params.hashId, body),
  });
}
