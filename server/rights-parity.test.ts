import { isObjectType } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { exampleDeviceConfig } from '../contracts/device';
import { providerOrganizationId } from '../contracts/limits';
import type { Right } from '../contracts/rights';
import { systemActor } from '../graph/common/context';
import { buildLiveSchema } from '../resolvers/live/schema';
import { sessionCookieName } from '../graph/identity/services/session.service';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization, buildApiKey, buildDevice, buildUser } from '../test-support/factories';
import { routeAccess } from './rest/route';

/** What a caller got: past the check of who may call (whatever the placeholders then earn), or refused as nobody, or as someone who may not. */
type Outcome = 'allowed' | 'unauthorized' | 'forbidden';

interface Caller {
  name: string;
  headers(): Record<string, string>;
  /** A fresh credential of the same caller, for an operation that ends the one it is given (logout). */
  fresh(): Promise<Record<string, string>>;
}

const placeholder = 'aaaaaaaa';

/**
 * Each GraphQL root field and the REST routes that do the same: the field must let in exactly
 * the callers that at least one of its routes lets in, and refuse the others as they do
 * (unauthorized or forbidden). A field or a route missing here fails the test until it is placed.
 */
const correspondence: Record<string, { query: string; rest: string[] } | { query: string; rest: []; why: string }> = {
  deviceGroup: { query: `{ deviceGroup(hashId: "${placeholder}") { hashId } }`, rest: ['GET /console-admin/v1/device-group/:hashId'] },
  deviceGroups: { query: '{ deviceGroups { rows { hashId } } }', rest: ['GET /console-admin/v1/device-group'] },
  device: { query: `{ device(hashId: "${placeholder}") { hashId } }`, rest: ['GET /console-admin/v1/device/:hashId', 'GET /console/v1/device/:hashId'] },
  devices: { query: '{ devices { rows { hashId } } }', rest: ['GET /console-admin/v1/device', 'GET /console/v1/device'] },
  deviceCount: { query: '{ deviceCount { totalCount } }', rest: ['GET /console/v1/device/count'] },
  deviceMeasurements: {
    query: `{ deviceMeasurements(hashId: "${placeholder}", field: "activePower", reportType: "meterPower", from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z") { at } }`,
    rest: ['GET /console-admin/v1/device/:hashId', 'GET /console/v1/device/:hashId'],
  },
  partnerships: { query: '{ partnerships { rows { hashId } } }', rest: ['GET /console-admin/v1/partnership', 'GET /console/v1/partnership'] },
  apiKey: { query: `{ apiKey(hashId: "${placeholder}") { hashId } }`, rest: ['GET /v1/api-key/:hashId'] },
  apiKeys: { query: '{ apiKeys { rows { hashId } } }', rest: ['GET /v1/api-key'] },
  auditLog: { query: '{ auditLog { rows { objectHashId } } }', rest: ['GET /console-admin/v1/audit-log'] },
  me: { query: '{ me { kind } }', rest: [], why: 'who is calling, answered to anyone (null for nobody); whoami is the console session check' },
  organization: {
    query: `{ organization(hashId: "${placeholder}") { hashId } }`,
    rest: ['GET /console-admin/v1/organization/:hashId', 'GET /console-shared/v1/authentication/whoami'],
  },
  organizations: { query: '{ organizations { rows { hashId } } }', rest: ['GET /console-admin/v1/organization'] },
  userInvites: { query: '{ userInvites { rows { hashId } } }', rest: ['GET /console-admin/v1/user-invite', 'GET /console/v1/user-invite'] },
  user: { query: `{ user(hashId: "${placeholder}") { hashId } }`, rest: ['GET /console-admin/v1/user/:hashId', 'GET /console/v1/user'] },
  users: { query: '{ users { rows { hashId email } } }', rest: ['GET /console-admin/v1/user', 'GET /console/v1/user'] },
  liveSubscriptions: { query: '{ liveSubscriptions }', rest: [], why: 'a constant that tells a client subscriptions are served' },
  createDeviceGroup: {
    query: `mutation { createDeviceGroup(input: { name: "Parity", organizationHashId: "${placeholder}" }) { hashId } }`,
    rest: ['POST /console-admin/v1/device-group'],
  },
  updateDeviceGroup: {
    query: `mutation { updateDeviceGroup(hashId: "${placeholder}", input: { name: "Parity" }) { hashId } }`,
    rest: ['PUT /console-admin/v1/device-group/:hashId'],
  },
  deleteDeviceGroup: { query: `mutation { deleteDeviceGroup(hashId: "${placeholder}") }`, rest: ['DELETE /console-admin/v1/device-group/:hashId'] },
  linkDeviceGroupApiKey: {
    query: `mutation { linkDeviceGroupApiKey(deviceGroupHashId: "${placeholder}", apiKeyHashId: "${placeholder}") }`,
    rest: ['POST /console-admin/v1/device-group/api-key'],
  },
  unlinkDeviceGroupApiKey: {
    query: `mutation { unlinkDeviceGroupApiKey(deviceGroupHashId: "${placeholder}", apiKeyHashId: "${placeholder}") }`,
    rest: ['DELETE /console-admin/v1/device-group/api-key'],
  },
  updateDevice: {
    query: `mutation { updateDevice(hashId: "${placeholder}", input: { name: "Parity" }) { hashId } }`,
    rest: ['PUT /console-admin/v1/device/:hashId'],
  },
  updateDeviceOutageContacts: {
    query: `mutation { updateDeviceOutageContacts(hashId: "${placeholder}", input: { outageEmails: ["parity@example.com"] }) { hashId } }`,
    rest: ['PUT /console/v1/device/:hashId'],
  },
  setSchedule: { query: 'mutation { setSchedule(input: { assetIdentifiers: ["parity"], schedule: [] }) { deviceHashIds } }', rest: ['PUT /v2/schedule'] },
  setParameters: {
    query: 'mutation { setParameters(input: { assetIdentifiers: ["parity"], parameters: { type: "sagerFurnace", schedule: [] } }) { deviceHashIds } }',
    rest: ['PUT /v1/parameters'],
  },
  createPartnership: {
    query: `mutation { createPartnership(input: { ownerOrganizationHashId: "${placeholder}", partnerOrganizationHashId: "${placeholder}", role: VIEWER, allDevices: true }) { hashId } }`,
    rest: ['POST /console-admin/v1/partnership'],
  },
  updatePartnership: {
    query: `mutation { updatePartnership(hashId: "${placeholder}", input: { role: VIEWER }) { hashId } }`,
    rest: ['PUT /console-admin/v1/partnership/:hashId'],
  },
  deletePartnership: { query: `mutation { deletePartnership(hashId: "${placeholder}") }`, rest: ['DELETE /console-admin/v1/partnership/:hashId'] },
  createApiKey: { query: `mutation { createApiKey(input: { organizationHashId: "${placeholder}", name: "Parity" }) { hashId } }`, rest: ['POST /v1/api-key'] },
  resetApiKey: { query: `mutation { resetApiKey(hashId: "${placeholder}") { hashId } }`, rest: ['POST /v1/api-key/reset/:hashId'] },
  updateApiKey: { query: `mutation { updateApiKey(hashId: "${placeholder}", input: { name: "Parity" }) }`, rest: ['PUT /v1/api-key/:hashId'] },
  deleteApiKey: { query: `mutation { deleteApiKey(hashId: "${placeholder}") }`, rest: ['DELETE /v1/api-key/:hashId'] },
  createOrganization: {
    query: 'mutation { createOrganization(input: { name: "", type: INSTALLER }) { hashId } }',
    rest: ['POST /console-admin/v1/organization'],
  },
  updateOrganization: {
    query: `mutation { updateOrganization(hashId: "${placeholder}", input: { name: "Parity" }) { hashId } }`,
    rest: ['PUT /console-admin/v1/organization/:hashId'],
  },
  login: {
    query: 'mutation { login(input: { email: "nobody@example.com", password: "not the password" }) { name } }',
    rest: ['POST /console-shared/v1/login'],
  },
  logout: { query: 'mutation { logout }', rest: ['DELETE /console-shared/v1/authentication/session'] },
  inviteUsers: {
    query: `mutation { inviteUsers(input: { organizationHashId: "${placeholder}", emails: ["parity@example.com"] }) { hashId } }`,
    rest: ['POST /console-admin/v1/user-invite'],
  },
  updateUser: {
    query: `mutation { updateUser(hashId: "${placeholder}", input: { name: "Parity" }) { hashId } }`,
    rest: ['PUT /console-admin/v1/user/:hashId'],
  },
  revokeUserInvite: { query: `mutation { revokeUserInvite(hashId: "${placeholder}") }`, rest: ['DELETE /console-admin/v1/user-invite/:hashId'] },
  deviceReports: {
    query: `subscription { deviceReports(hashId: "${placeholder}") { type } }`,
    rest: ['GET /console-admin/v1/device/:hashId/server-sent-events', 'GET /console/v1/device/:hashId'],
  },
  devicePresence: {
    query: `subscription { devicePresence(hashId: "${placeholder}") { online } }`,
    rest: ['GET /console-admin/v1/device/:hashId/server-sent-events', 'GET /console/v1/device/:hashId'],
  },
  issues: { query: '{ issues { rows { hashId } } }', rest: ['GET /console-admin/v1/issue', 'GET /console/v1/issue'] },
  issue: { query: `{ issue(hashId: "${placeholder}") { hashId } }`, rest: ['GET /console-admin/v1/issue/:hashId', 'GET /console/v1/issue/:hashId'] },
  issueTimeline: {
    query: `{ issueTimeline(hashId: "${placeholder}") { rows { kind } } }`,
    rest: ['GET /console-admin/v1/issue/:hashId/timeline', 'GET /console/v1/issue/:hashId/timeline', 'GET /console/v1/issue/:issueHashId/message'],
  },
  issueCount: { query: '{ issueCount { openCount } }', rest: ['GET /console/v1/issue/count'] },
  updateIssue: {
    query: `mutation { updateIssue(hashId: "${placeholder}", input: { title: "Parity" }) { hashId } }`,
    rest: ['PUT /console-admin/v1/issue/:hashId'],
  },
  resolveIssue: { query: `mutation { resolveIssue(hashId: "${placeholder}") { hashId } }`, rest: ['PUT /console-admin/v1/issue/:hashId/resolve'] },
  reopenIssue: { query: `mutation { reopenIssue(hashId: "${placeholder}") { hashId } }`, rest: ['PUT /console-admin/v1/issue/:hashId/reopen'] },
  addIssueMessage: {
    query: `mutation { addIssueMessage(input: { issueHashId: "${placeholder}", message: "Parity" }) { hashId } }`,
    rest: ['POST /console-admin/v1/issue-messages', 'POST /console/v1/issue/:issueHashId/message'],
  },
  updateIssueMessage: {
    query: `mutation { updateIssueMessage(hashId: "${placeholder}", message: "Parity") { hashId } }`,
    rest: ['PUT /console-admin/v1/issue-messages/:hashId'],
  },
  subscribeToIssue: { query: `mutation { subscribeToIssue(hashId: "${placeholder}") { hashId } }`, rest: ['PUT /console/v1/issue/:issueHashId/subscribe'] },
  unsubscribeFromIssue: {
    query: `mutation { unsubscribeFromIssue(hashId: "${placeholder}") { hashId } }`,
    rest: ['DELETE /console/v1/issue/:issueHashId/unsubscribe'],
  },
  addIssueSubscribers: {
    query: `mutation { addIssueSubscribers(hashId: "${placeholder}", userHashIds: ["${placeholder}"]) { hashId } }`,
    rest: ['POST /console-admin/v1/issue/:hashId/subscriber'],
  },
  removeIssueSubscribers: {
    query: `mutation { removeIssueSubscribers(hashId: "${placeholder}", userHashIds: ["${placeholder}"]) { hashId } }`,
    rest: ['DELETE /console-admin/v1/issue/:hashId/subscriber'],
  },
  billingCharge: {
    query: `{ billingCharge(hashId: "${placeholder}") { hashId } }`,
    rest: ['GET /console-admin/v1/billing-charge/:hashId'],
  },
  billingCharges: {
    query: '{ billingCharges { rows { hashId } } }',
    rest: ['GET /console-admin/v1/billing-charge'],
  },
  addBillingCharge: {
    query: `mutation { addBillingCharge(input: { organizationHashId: "${placeholder}", description: "Parity", charge: 1, ledgerAccount: SAAS }) { billingChargeHashId } }`,
    rest: ['POST /console-admin/v1/billing-charge'],
  },
  removeBillingCharge: {
    query: `mutation { removeBillingCharge(hashId: "${placeholder}") }`,
    rest: ['DELETE /console-admin/v1/billing-charge/:hashId'],
  },
  refundBillingCharge: {
    query: `mutation { refundBillingCharge(hashId: "${placeholder}") { billingChargeHashId } }`,
    rest: ['POST /console-admin/v1/billing-charge/:hashId/refund'],
  },
  billingForecast: {
    query: `{ billingForecast(organizationHashId: "${placeholder}") { unitCount } }`,
    rest: ['GET /console-admin/v1/billing-forecast'],
  },
  messageDestination: {
    query: `{ messageDestination(hashId: "${placeholder}") { hashId } }`,
    rest: ['GET /console-admin/v1/message-destination/:hashId'],
  },
  messageDestinations: {
    query: '{ messageDestinations { rows { hashId } } }',
    rest: ['GET /console-admin/v1/message-destination', 'GET /console/v1/message-destination'],
  },
  createMessageDestination: {
    query: `mutation { createMessageDestination(input: { name: "Parity", organizationHashId: "${placeholder}", destination: { type: "http" } }) { hashId } }`,
    rest: ['POST /console-admin/v1/message-destination'],
  },
  updateMessageDestination: {
    query: `mutation { updateMessageDestination(hashId: "${placeholder}", input: { name: "Parity" }) { hashId } }`,
    rest: ['PUT /console-admin/v1/message-destination/:hashId'],
  },
  resumeMessageDestination: {
    query: `mutation { resumeMessageDestination(hashId: "${placeholder}") { hashId } }`,
    rest: ['PUT /console-admin/v1/message-destination/:hashId/resume'],
  },
  deviceGroupMessageDestination: {
    query: `{ deviceGroupMessageDestination(hashId: "${placeholder}") { hashId } }`,
    rest: ['GET /console-admin/v1/device-group/message-destination/:hashId'],
  },
  deviceGroupMessageDestinations: {
    query: '{ deviceGroupMessageDestinations { rows { hashId } } }',
    rest: ['GET /console-admin/v1/device-group/message-destination'],
  },
  addDeviceGroupMessageDestination: {
    query: `mutation { addDeviceGroupMessageDestination(input: { deviceGroupHashId: "${placeholder}", messageDestinationHashId: "${placeholder}", messageTypes: [ALARM] }) { hashId } }`,
    rest: ['POST /console-admin/v1/device-group/message-destination'],
  },
  updateDeviceGroupMessageDestination: {
    query: `mutation { updateDeviceGroupMessageDestination(hashId: "${placeholder}", input: { messageTypes: [ALARM] }) { hashId } }`,
    rest: ['PUT /console-admin/v1/device-group/message-destination/:hashId'],
  },
  removeDeviceGroupMessageDestination: {
    query: `mutation { removeDeviceGroupMessageDestination(hashId: "${placeholder}") }`,
    rest: ['DELETE /console-admin/v1/device-group/message-destination/:hashId'],
  },
  billingLegalEntity: {
    query: `{ billingLegalEntity(hashId: "${placeholder}") { hashId } }`,
    rest: ['GET /console-admin/v1/billing-legal-entity/:hashId'],
  },
  billingLegalEntities: { query: '{ billingLegalEntities { rows { hashId } } }', rest: ['GET /console-admin/v1/billing-legal-entity'] },
  createBillingLegalEntity: {
    query: `mutation { createBillingLegalEntity(input: { organizationHashId: "${placeholder}", companyName: "Parity", country: "NL" }) { hashId } }`,
    rest: ['POST /console-admin/v1/billing-legal-entity'],
  },
  updateBillingLegalEntity: {
    query: `mutation { updateBillingLegalEntity(hashId: "${placeholder}", input: { companyName: "Parity" }) { hashId } }`,
    rest: ['PUT /console-admin/v1/billing-legal-entity/:hashId'],
  },
  deleteBillingLegalEntity: {
    query: `mutation { deleteBillingLegalEntity(hashId: "${placeholder}") }`,
    rest: ['DELETE /console-admin/v1/billing-legal-entity/:hashId'],
  },
  updateDeviceInvoiceDetails: {
    query: `mutation { updateDeviceInvoiceDetails(hashId: "${placeholder}", input: { invoiceCustomerReference: "Parity" }) { hashId } }`,
    rest: ['PUT /console-admin/v1/device/:hashId/invoice-details'],
  },
  billingInvoice: {
    query: `{ billingInvoice(hashId: "${placeholder}") { hashId } }`,
    rest: ['GET /console-admin/v1/billing-invoice/:hashId', 'GET /console-admin/v1/billing-invoice/:hashId/pdf'],
  },
  billingInvoices: { query: '{ billingInvoices { rows { hashId } } }', rest: ['GET /console-admin/v1/billing-invoice'] },
  issueTimelineLive: {
    query: `subscription { issueTimeline(hashId: "${placeholder}") { kind } }`,
    rest: ['GET /console-admin/v1/issue/:hashId/timeline', 'GET /console/v1/issue/:hashId/timeline'],
  },
};

/** REST routes that no GraphQL field serves, and why. */
const restOnly: Record<string, string> = {
  'GET /v1/health': 'health checks are HTTP',
  'GET /v1/elb': 'health checks are HTTP',
  'GET /livez': 'health checks are HTTP',
  'GET /readyz': 'health checks are HTTP',
  'POST /console/v1/settings/two-factor/generate-challenge': 'two-factor settings are REST only (console.md section 7)',
  'POST /console/v1/settings/two-factor/change-app': 'two-factor settings are REST only',
  'POST /console/v1/settings/two-factor/new-recovery-codes': 'two-factor settings are REST only',
  'POST /console-admin/v1/mail': 'a test mail, REST only',
  'POST /console/v1/password-reset': 'password reset is REST only',
  'GET /console/v1/password-reset': 'password reset is REST only',
  'POST /console/v1/password-reset/reset': 'password reset is REST only',
  'GET /console/v1/user-invite/:hashId': 'accepting an invite is REST only',
  'POST /console/v1/user-invite/:hashId/create-challenge': 'accepting an invite is REST only',
  'POST /console/v1/user-invite/:hashId': 'accepting an invite is REST only',
  'GET /console-admin/v1/saml2/login': 'staff sign-in is a browser redirect',
  'POST /console-admin/v1/saml2/acs': 'staff sign-in is a browser redirect',
  'GET /dev-idp/sso': 'the development identity provider is a browser page',
  'POST /v1/contact': 'contacts are REST only (api.md section 7)',
  'GET /v1/contact': 'contacts are REST only',
  'PUT /v1/contact/:contactId': 'contacts are REST only',
  'DELETE /v1/contact/:contactId': 'contacts are REST only',
  'POST /console-admin/v1/device/:hashId/provisioning-token': 'REST only',
  'POST /console-admin/v1/device/:hashId/firmware': 'REST only',
  'POST /console-admin/v1/device/:hashId/send-message': 'REST only',
  'GET /console-admin/v1/device/:hashId/hubspot': 'a redirect',
  'GET /console-admin/v1/latest-firmware': 'REST only',
  'GET /console-admin/v1/partnership/device/:hashId': 'REST only (GraphQL gives a device its partnerships as a field)',
  'GET /v2/device': 'the public API; GraphQL devices is the console list',
  'GET /v1/device/web-socket': 'a websocket of its own',
  'GET /v1/device/web-socket/tunnel': 'a websocket of its own',
  'POST /v1/device/provision/cert': 'gateways provision over REST',
  'POST /console/v1/file/upload': 'files are REST only (console.md section 7): a data URL in, a URL out',
  'GET /console/v1/file/:fileIdentifier': 'files are read over HTTP, with their own type',
  'GET /console-admin/v1/on-call/ops': 'on-call is REST only (console.md section 7)',
  'POST /console-admin/v1/on-call/ops': 'on-call is REST only',
  'GET /console-admin/v1/on-call/grafana': 'on-call is REST only',
  'POST /v1/twilio': "Twilio's webhooks, checked by their signature",
  'POST /v1/twilio/finish': "Twilio's webhooks, checked by their signature",
  'POST /v1/twilio/status': "Twilio's webhooks, checked by their signature",
};

/** The outcome of an answer: refused for who is calling, or let past that check. */
function outcomeOf(key: string | undefined, details: { required?: unknown; reason?: unknown } | undefined): Outcome {
  if (key === 'unauthorized') {
    return 'unauthorized';
  }
  if (key === 'forbidden' && (details?.required !== undefined || /needs (a console session|an API key)$/.test(String(details?.reason ?? '')))) {
    return 'forbidden';
  }
  return 'allowed';
}

describe('rights are the same over REST and GraphQL', () => {
  let t: TestApp;
  let wsUrl = '';
  let customerHashId = '';
  const callers: Caller[] = [];
  const clients: Client[] = [];

  async function userCaller(name: string, rights: Right[], organizationHashId?: string): Promise<Caller> {
    const cookie = await t.signIn(rights, organizationHashId);
    const token = cookie.slice(sessionCookieName.length + 1);
    const actor = await t.services.sessions.authenticate(token);
    return {
      name,
      headers: () => ({ cookie }),
      fresh: async () => ({ cookie: `${sessionCookieName}=${(await t.services.sessions.mint(actor.userId ?? 0, 'test')).token}` }),
    };
  }

  async function keyCaller(name: string, organizationHashId: string, rights?: Right[]): Promise<Caller> {
    const { apiKey } = await buildApiKey(t.services, { organizationHashId, name, ...(rights === undefined ? {} : { rights }) });
    return { name, headers: () => ({ authorization: `Bearer ${apiKey}` }), fresh: async () => ({ authorization: `Bearer ${apiKey}` }) };
  }

  beforeAll(async () => {
    t = await testApp({}, { graphql: true });
    wsUrl = `${(await t.listen()).replace('http', 'ws')}/graphql`;
    customerHashId = (await anOrganization(t.services, { name: 'Parity BV' })).hashId;
    const providerHashId = t.hashIds.encode('organization', providerOrganizationId);
    callers.push({ name: 'nobody', headers: () => ({}), fresh: async () => ({}) });
    callers.push(await userCaller('customer user with customer.read', ['customer.read'], customerHashId));
    callers.push(await userCaller('customer user with customer.write', ['customer.write'], customerHashId));
    for (const right of ['gridport.admin', 'gridport.ops', 'gridport.developer', 'gridport.sales', 'gridport.employee'] as const) {
      callers.push(await userCaller(`staff with ${right}`, [right]));
    }
    callers.push(await keyCaller('customer API key', customerHashId));
    callers.push(await keyCaller('provider API key with gridport.developer', providerHashId, ['gridport.developer']));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await t.close();
  });

  async function rest(route: string, headers: Record<string, string>): Promise<Outcome> {
    const [method = 'GET', url = ''] = route.split(' ');
    const path = url.replace(/:contactId/g, '1').replace(/:[A-Za-z]+/g, placeholder);
    const withBody = method !== 'GET' && method !== 'DELETE';
    const response = await t.app.inject({
      method: method as 'GET',
      url: path,
      headers: { ...headers, 'content-type': 'application/json' },
      ...(withBody ? { payload: '{}' } : {}),
    });
    const body = String(response.headers['content-type'] ?? '').includes('json')
      ? (response.json() as { key?: string; details?: { required?: unknown; reason?: unknown } })
      : {};
    return outcomeOf(body.key, body.details);
  }

  async function subscribe(query: string, headers: Record<string, string>): Promise<Outcome> {
    class WithHeaders extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    }
    const client = createClient({ url: wsUrl, webSocketImpl: WithHeaders, retryAttempts: 0, lazy: true });
    clients.push(client);
    return new Promise((resolve) => {
      client.subscribe(
        { query },
        {
          // A refusal in subscribe comes as a result with errors, as any other error of the operation.
          next: (value) => {
            const first = (value.errors?.[0] as { extensions?: { code?: string; details?: { required?: unknown; reason?: unknown } } } | undefined)?.extensions;
            resolve(outcomeOf(first?.code, first?.details));
          },
          // A refused upgrade or connection (nobody) closes the socket rather than answering an error.
          error: (error) => {
            const first = Array.isArray(error)
              ? (error[0] as { extensions?: { code?: string; details?: { required?: unknown; reason?: unknown } } } | undefined)
              : undefined;
            resolve(Array.isArray(error) ? outcomeOf(first?.extensions?.code, first?.extensions?.details) : 'unauthorized');
          },
          complete: () => resolve('allowed'),
        },
      );
    });
  }

  async function graphql(query: string, headers: Record<string, string>): Promise<Outcome> {
    if (query.startsWith('subscription')) {
      return subscribe(query, headers);
    }
    const response = await t.app.inject({ method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'application/json' }, payload: { query } });
    const body = response.json() as { errors?: { extensions?: { code?: string; details?: { required?: unknown; reason?: unknown } } }[] };
    const first = body.errors?.[0];
    return outcomeOf(first?.extensions?.code, first?.extensions?.details);
  }

  async function rootFields(): Promise<string[]> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: { query: '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }' },
    });
    const schema = (response.json() as { data: { __schema: { queryType: { fields: { name: string }[] }; mutationType: { fields: { name: string }[] } } } }).data
      .__schema;
    const live = await buildLiveSchema(t.services.pubsub);
    const liveFields = [live.getQueryType(), live.getSubscriptionType()].flatMap((root) => (root && isObjectType(root) ? Object.keys(root.getFields()) : []));
    return [...schema.queryType.fields, ...schema.mutationType.fields].map((field) => field.name).concat(liveFields);
  }

  it('has an entry for every GraphQL root field and every REST route', async () => {
    const fields = await rootFields();
    expect(fields.filter((field) => !(field in correspondence))).toEqual([]);
    const mapped = new Set([...Object.values(correspondence).flatMap((entry) => entry.rest), ...Object.keys(restOnly)]);
    expect([...routeAccess.keys()].filter((route) => !mapped.has(route))).toEqual([]);
    expect([...mapped].filter((route) => !routeAccess.has(route))).toEqual([]);
  });

  it('lets in and refuses the same callers on both, for every session kind and right', async () => {
    const differences: string[] = [];
    let compared = 0;
    const tally: Record<Outcome, number> = { allowed: 0, unauthorized: 0, forbidden: 0 };
    for (const [field, entry] of Object.entries(correspondence)) {
      if (entry.rest.length === 0) {
        continue;
      }
      for (const caller of callers) {
        const endsSession = field === 'logout';
        const restOutcomes: Outcome[] = [];
        for (const route of entry.rest) {
          restOutcomes.push(await rest(route, endsSession ? await caller.fresh() : caller.headers()));
        }
        const expected = restOutcomes.includes('allowed') ? 'allowed' : (restOutcomes[0] ?? 'allowed');
        const got = await graphql(entry.query, endsSession ? await caller.fresh() : caller.headers());
        compared += 1;
        tally[got] += 1;
        if (got !== expected) {
          differences.push(
            `${field} as ${caller.name}: GraphQL ${got}, REST ${entry.rest.map((route, index) => `${route} ${restOutcomes[index] ?? ''}`).join(', ')}`,
          );
        }
      }
    }
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThan(300);
    expect(tally).toEqual({ allowed: expect.any(Number) as number, unauthorized: expect.any(Number) as number, forbidden: expect.any(Number) as number });
    expect(Math.min(tally.allowed, tally.unauthorized, tally.forbidden)).toBeGreaterThan(30);
  }, 120_000);

  describe('the probe of issue 14', () => {
    let deviceHashId = '';
    let writer: Caller;
    let reader: Caller;
    let key: Caller;

    beforeAll(async () => {
      writer = await userCaller('probe writer', ['customer.write'], customerHashId);
      reader = await userCaller('probe reader', ['customer.read'], customerHashId);
      key = await keyCaller('probe key', customerHashId);
      deviceHashId = (
        await buildDevice(t.services, {
          organizationHashId: customerHashId,
          name: 'Probed site',
          config: exampleDeviceConfig,
          isExposedToCustomer: true,
          cloudApi: 'READ_WRITE',
        })
      ).hashId;
    });

    const pending = async () =>
      (await t.services.deviceOutbox.pending(t.hashIds.decode('device', deviceHashId) ?? 0)).map((message) => (message.payload as { type: string }).type);
    const schedule = {
      assetIdentifiers: ['pv-roof'],
      schedule: [
        {
          startAt: new Date(Date.now() + 3_600_000).toISOString(),
          endAt: new Date(Date.now() + 7_200_000).toISOString(),
          command: { type: 'limitProductionPower', percentage: 50 },
        },
      ],
    };
    const setSchedule = 'mutation($input: ScheduleInput!) { setSchedule(input: $input) { deviceHashIds } }';
    const post = async (headers: Record<string, string>, query: string, variables: Record<string, unknown>) =>
      (
        await t.app.inject({ method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'application/json' }, payload: { query, variables } })
      ).json() as { data?: Record<string, unknown> | null; errors?: { extensions?: unknown }[] };

    it('refuses setSchedule to a customer user session over GraphQL, as PUT /v2/schedule does; an API key of the organisation steers', async () => {
      const before = await pending();
      const overRest = await t.app.inject({ method: 'PUT', url: '/v2/schedule', headers: writer.headers(), payload: schedule });
      expect({ status: overRest.statusCode, body: overRest.json() as unknown }).toEqual({
        status: 403,
        body: { key: 'forbidden', details: { reason: 'this route needs an API key' } },
      });
      const overGraphql = await post(writer.headers(), setSchedule, { input: schedule });
      expect(overGraphql.errors?.map((error) => error.extensions)).toEqual([{ code: 'forbidden', details: { reason: 'this route needs an API key' } }]);
      expect(await pending()).toEqual(before);

      const steered = await post(key.headers(), setSchedule, { input: schedule });
      expect({ data: steered.data, errors: steered.errors }).toEqual({ data: { setSchedule: { deviceHashIds: [deviceHashId] } } });
      expect(await pending()).toEqual([...before, 'setAssetSchedule']);
    });

    it("refuses a customer API key the organisation's users over GraphQL, as the console user routes do", async () => {
      await buildUser(t.services, { organizationHashId: customerHashId, name: 'Listed', email: 'listed.user@example.com', rights: ['customer.read'] });
      const overRest = await t.app.inject({ method: 'GET', url: '/console/v1/user', headers: key.headers() });
      expect({ status: overRest.statusCode, body: overRest.json() as unknown }).toEqual({
        status: 403,
        body: { key: 'forbidden', details: { reason: 'this route needs a console session' } },
      });
      const overGraphql = await post(key.headers(), '{ users { rows { email } } }', {});
      expect({ data: overGraphql.data ?? null, errors: overGraphql.errors?.map((error) => error.extensions) }).toEqual({
        data: null,
        errors: [{ code: 'forbidden', details: { reason: 'this route needs a console session' } }],
      });
      const one = await post(key.headers(), 'query($h: ID!) { user(hashId: $h) { email } }', { h: placeholder });
      expect(one.errors?.map((error) => error.extensions)).toEqual([{ code: 'forbidden', details: { reason: 'this route needs a console session' } }]);

      const seen = await post(reader.headers(), '{ users { rows { email } } }', {});
      expect((seen.data?.users as { rows: { email: string }[] }).rows.map((row) => row.email)).toContain('listed.user@example.com');
    });

    it("refuses a customer.read user a device's outage contacts over REST and GraphQL; customer.write changes them", async () => {
      const required = ['customer.write', 'gridport.ops', 'gridport.developer'];
      const overRest = await t.app.inject({
        method: 'PUT',
        url: `/console/v1/device/${deviceHashId}`,
        headers: reader.headers(),
        payload: { outageEmails: ['spy@example.com'] },
      });
      expect({ status: overRest.statusCode, body: overRest.json() as unknown }).toEqual({ status: 403, body: { key: 'forbidden', details: { required } } });
      const mutation = 'mutation($h: ID!, $e: [String!]) { updateDeviceOutageContacts(hashId: $h, input: { outageEmails: $e }) { outageEmails } }';
      const overGraphql = await post(reader.headers(), mutation, { h: deviceHashId, e: ['spy@example.com'] });
      expect(overGraphql.errors?.map((error) => error.extensions)).toEqual([{ code: 'forbidden', details: { required } }]);
      expect((await t.services.devices.get(systemActor('test'), deviceHashId)).outageEmails).toEqual([]);

      const written = await t.app.inject({
        method: 'PUT',
        url: `/console/v1/device/${deviceHashId}`,
        headers: writer.headers(),
        payload: { outageEmails: ['oncall@example.com'] },
      });
      expect({ status: written.statusCode, emails: (written.json() as { outageEmails: string[] }).outageEmails }).toEqual({
        status: 200,
        emails: ['oncall@example.com'],
      });
      const viaGraphql = await post(writer.headers(), mutation, { h: deviceHashId, e: ['second@example.com'] });
      expect(viaGraphql.data).toEqual({ updateDeviceOutageContacts: { outageEmails: ['oncall@example.com', 'second@example.com'] } });
    });
  });
});
