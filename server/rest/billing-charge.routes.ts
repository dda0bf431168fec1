import type { FastifyInstance } from 'fastify';
import {
  billingChargeCreatedSchema,
  billingChargePageSchema,
  billingChargeViewSchema,
  billingForecastQuerySchema,
  billingForecastViewSchema,
  chargeListQuerySchema,
  chargeRefundSchema,
  manualChargeCreateSchema,
} from '../../contracts/billing';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console-admin/v1/billing-charge';

/** Charges in the admin console (console.md sections 3 and 7; docs/billing.md, "Charges") and the monthly forecast. */
export function billingChargeRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'List charges newest first, by organisation, device, invoice, invoiced or not, and text (description or invoice public id)',
    tags: ['billing'],
    ...access('billingCharge.list'),
    query: chargeListQuerySchema,
    response: billingChargePageSchema,
    handler: ({ actor, query }) => services.billingCharges.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId`,
    summary: 'Get a charge',
    tags: ['billing'],
    ...access('billingCharge.read'),
    params: hashIdParams,
    response: billingChargeViewSchema,
    handler: ({ actor, params }) => services.billingCharges.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: 'Add a manual charge in euro cents (negative credits) to an organisation, of one of its devices when given',
    tags: ['billing'],
    ...access('billingCharge.create'),
    body: manualChargeCreateSchema,
    status: 201,
    response: billingChargeCreatedSchema,
    handler: ({ actor, body }) => services.billingCharges.create(actor, body),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${base}/:hashId`,
    summary: 'Remove a manual charge not yet invoiced (not_manual, is_invoiced)',
    tags: ['billing'],
    ...access('billingCharge.delete'),
    params: hashIdParams,
    status: 204,
    handler: ({ actor, params }) => services.billingCharges.remove(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: `${base}/:hashId/refund`,
    summary: 'Refund all that is left of a charge, or part of it: a charge of the opposite sign on the same ledger account naming it',
    tags: ['billing'],
    ...access('billingCharge.refund'),
    params: hashIdParams,
    body: chargeRefundSchema,
    status: 201,
    response: billingChargeCreatedSchema,
    handler: ({ actor, params, body }) => services.billingCharges.refund(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/console-admin/v1/billing-forecast',
    summary: "An organisation's monthly forecast: its devices billed by usage at its pricing now, with the tier discount",
    tags: ['billing'],
    ...access('billingForecast.read'),
    query: billingForecastQuerySchema,
    response: billingForecastViewSchema,
    handler: ({ actor, query }) => services.billingCharges.forecast(actor, query.organizationHashId),
  });
}
