import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { legalEntityCreateSchema, legalEntityListQuerySchema, legalEntityUpdateSchema } from '../../contracts/billing';
import { hashIdParams, pageSchema } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/console-admin/v1/billing-legal-entity';
const tags = ['billing-legal-entity'];

/** A legal entity as it leaves the server (BillingLegalEntityView of contracts/billing.ts), for the OpenAPI document. */
const legalEntityViewSchema = yup.object({
  hashId: yup.string().required(),
  organization: yup.object({ hashId: yup.string().required(), name: yup.string().required() }).required(),
  companyName: yup.string().required(),
  address1: yup.string().nullable().defined(),
  address2: yup.string().nullable().defined(),
  zipcode: yup.string().nullable().defined(),
  city: yup.string().nullable().defined(),
  country: yup.string().required(),
  emails: yup.array(yup.string().required()).required(),
  chamberOfCommerce: yup.string().nullable().defined(),
  taxNumber: yup.string().nullable().defined(),
  accountingContactId: yup.string().nullable().defined(),
  isOrganizationDefault: yup.boolean().required(),
  createdAt: yup.string().required(),
  updatedAt: yup.string().required(),
});

/** Billing legal entities in the admin console (console.md sections 3, 5 and 7; docs/billing.md, "Legal entities"). */
export function billingLegalEntityRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary:
      "Create a legal entity of an organisation from full details, or from a Moneybird contact id whose details Moneybird gives (details given override the contact's)",
    tags,
    ...access('billingLegalEntity.create'),
    body: legalEntityCreateSchema,
    status: 201,
    response: yup.object({ billingLegalEntityHashId: yup.string().required() }),
    handler: async ({ actor, body }) => ({ billingLegalEntityHashId: (await services.billingLegalEntities.create(actor, body)).hashId }),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'List legal entities, newest first, by organisation and company name',
    tags,
    ...access('billingLegalEntity.list'),
    query: legalEntityListQuerySchema,
    response: pageSchema(legalEntityViewSchema),
    handler: ({ actor, query }) => services.billingLegalEntities.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId`,
    summary: 'Get a legal entity',
    tags,
    ...access('billingLegalEntity.read'),
    params: hashIdParams,
    response: legalEntityViewSchema,
    handler: ({ actor, params }) => services.billingLegalEntities.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${base}/:hashId`,
    summary: "Update a legal entity: only what is given changes; a Moneybird contact id given fills in the contact's details first",
    tags,
    ...access('billingLegalEntity.update'),
    params: hashIdParams,
    body: legalEntityUpdateSchema,
    response: legalEntityViewSchema,
    handler: ({ actor, params, body }) => services.billingLegalEntities.update(actor, params.hashId, body),
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${base}/:hashId`,
    summary: "Delete a legal entity that is neither its organisation's default nor on an invoice (is_in_use); devices naming it fall back to the default",
    tags,
    ...access('billingLegalEntity.delete'),
    params: hashIdParams,
    status: 204,
    handler: ({ actor, params }) => services.billingLegalEntities.delete(actor, params.hashId),
  });
}
