import type { FastifyInstance } from 'fastify';
import { invoiceListQuerySchema } from '../../contracts/billing';
import { billingInvoicePageSchema, billingInvoiceWithChargesSchema } from '../../contracts/billing-invoice';
import { hashIdParams } from '../../contracts/pagination';
import type { Services } from '../../graph/services';
import { access } from './access';
import { contentDisposition } from './file.routes';
import { defineRoute } from './route';

const base = '/console-admin/v1/billing-invoice';

/** Invoices in the admin console (console.md sections 3 and 7; docs/billing.md, "Invoices"): staff read them, their charges and their PDF. */
export function billingInvoiceRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'List invoices, newest first, by organisation and public id (filter)',
    tags: ['billing-invoice'],
    ...access('billingInvoice.list'),
    query: invoiceListQuerySchema,
    response: billingInvoicePageSchema,
    handler: ({ actor, query }) => services.billingInvoices.list(actor, query),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId`,
    summary: 'Get an invoice with its totals per ledger account and every charge on it',
    tags: ['billing-invoice'],
    ...access('billingInvoice.read'),
    params: hashIdParams,
    response: billingInvoiceWithChargesSchema,
    handler: ({ actor, params }) => services.billingInvoices.get(actor, params.hashId),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: `${base}/:hashId/pdf`,
    summary: 'Get an invoice as a PDF (application/pdf), named after its public id',
    tags: ['billing-invoice'],
    ...access('billingInvoice.pdf'),
    params: hashIdParams,
    handler: async ({ actor, params, reply }) => {
      const { publicId, body } = await services.billingInvoices.pdf(actor, params.hashId);
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('content-length', String(body.length))
        .header('content-disposition', contentDisposition('inline', `${publicId}.pdf`))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=0, must-revalidate')
        .send(body);
    },
  });
}
