import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { contactCreateSchema, contactIdParams, contactListQuerySchema, contactUpdateSchema, contactViewSchema } from '../../contracts/contact';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

const base = '/v1/contact';

/** Contacts (api.md sections 5 to 7): an API key with the developer right only. */
export function contactRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: base,
    summary: 'Create a contact',
    tags: ['contact'],
    ...access('contact.manage'),
    body: contactCreateSchema,
    status: 201,
    response: yup.object({ contactId: yup.number().required() }),
    handler: async ({ actor, body }) => {
      const contact = await services.contacts.create(actor, body);
      return { contactId: contact.id };
    },
  });

  defineRoute(app, services, {
    method: 'GET',
    url: base,
    summary: 'List contacts',
    tags: ['contact'],
    ...access('contact.manage'),
    query: contactListQuerySchema,
    response: yup.object({ contacts: yup.array(contactViewSchema).required() }),
    handler: async ({ actor, query }) => ({ contacts: await services.contacts.list(actor, query) }),
  });

  defineRoute(app, services, {
    method: 'PUT',
    url: `${base}/:contactId`,
    summary: 'Update a contact',
    tags: ['contact'],
    ...access('contact.manage'),
    params: contactIdParams,
    body: contactUpdateSchema,
    status: 204,
    handler: async ({ actor, params, body }) => {
      await services.contacts.update(actor, params.contactId, body);
    },
  });

  defineRoute(app, services, {
    method: 'DELETE',
    url: `${base}/:contactId`,
    summary: 'Delete a contact',
    tags: ['contact'],
    ...access('contact.manage'),
    params: contactIdParams,
    status: 204,
    handler: async ({ actor, params }) => {
      await services.contacts.delete(actor, params.contactId);
    },
  });
}
