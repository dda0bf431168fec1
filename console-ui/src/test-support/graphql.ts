import type { Right } from '../../../contracts/rights';
import { profile, type FakeAnswer, type FakeHandler, type SeenCall } from './render';

/** What the console posts to /graphql. */
export interface GraphqlBody {
  operationName?: string;
  query?: string;
  variables?: Record<string, unknown>;
}

export const graphqlBodyOf = (call: SeenCall): GraphqlBody => (call.body ?? {}) as GraphqlBody;

/** The variables of every call of `operationName` the fake server saw, oldest first. */
export const variablesOf = (calls: SeenCall[], operationName: string) =>
  calls.filter((call) => graphqlBodyOf(call).operationName === operationName).map((call) => graphqlBodyOf(call).variables);

/** A GraphQL answer with `data`. */
export const graphqlData = (data: unknown): FakeAnswer => ({ status: 200, body: { data } });

/** A GraphQL answer refusing with the catalogue's `key` (and its details), as the server does. */
export const graphqlRefusal = (key: string, details?: unknown): FakeAnswer => ({
  status: 200,
  body: { data: null, errors: [{ message: key, extensions: { code: key, details } }] },
});

/** Answers one GraphQL operation (or any other call, by `call.path`); undefined leaves it unknown (404 not_found). */
export type GraphqlAnswerer = (operationName: string, variables: Record<string, unknown>, call: SeenCall) => ReturnType<FakeHandler>;

/** A server with a signed-in staff user named `name` holding `rights`, whose other calls `answer` answers. */
export function staffServer(rights: Right[], answer: GraphqlAnswerer, name = 'Staff Member'): FakeHandler {
  return (call) => {
    if (call.path === '/console-shared/v1/authentication/whoami') {
      return { status: 200, body: profile(rights, name) };
    }
    const { operationName = '', variables = {} } = graphqlBodyOf(call);
    return answer(operationName, variables, call);
  };
}

/** An organisation as the admin organisation frame and general tab read it (AdminOrganization). */
export function anAdminOrganization(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Organization',
    hashId: 'o7',
    name: 'Harbour Energy BV',
    type: 'ENERGY_TRADER',
    isProvider: false,
    invoiceCustomerReference: 'PO-17',
    invoiceFrequency: 'MONTHLY',
    requireLegalEntityPerDevice: false,
    requireCustomerReferencePerDevice: false,
    subscriptionDefaults: { __typename: 'SubscriptionDefaults', chargePeriod: 1, runtime: 12 },
    createdAt: '2026-11-01T09:00:00.000Z',
    updatedAt: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

/**
 * The answer to AdminOrganization, the query of the frame around every organisation tab: the
 * organisation asked for, so a tab's test need not care about the frame.
 */
export const adminOrganizationAnswer = (variables: Record<string, unknown>, overrides: Record<string, unknown> = {}): FakeAnswer =>
  graphqlData({ organization: anAdminOrganization({ hashId: variables.hashId, ...overrides }) });
