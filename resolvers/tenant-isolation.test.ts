import type { MessageDestinationCreate } from '../contracts/forwarding';
import { isObjectType } from 'graphql';
import type { Actor } from '../graph/common/context';
import { systemActor } from '../graph/common/context';
import { anOrganization, buildApiKey, buildDeviceGroup, buildIssue, buildPartnership, buildUser } from '../test-support/factories';
import { seedDevices } from '../test-support/fleet';
import { insertCharge } from '../test-support/billing';
import { customerActor, testGraph, type TestGraph } from '../test-support/graphql';

/**
 * Tenant isolation over every root field of the composed graph: a customer of organisation B
 * (as a console user and as an API key) probes organisation A's rows through each field. Each
 * probe must be refused, or answer data in which nothing of A appears; afterwards A's rows are
 * as they were. A new root field fails this test until it has a probe.
 */
describe('tenant isolation in GraphQL', () => {
  let g: TestGraph;
  const a = {
    organizationHashId: '',
    organizationName: 'Victim Energy BV',
    userHashId: '',
    userEmail: 'victim.user@example.com',
    inviteHashId: '',
    inviteEmail: 'victim.invitee@example.com',
    apiKeyHashId: '',
    apiKeyName: 'Victim trading key',
    deviceHashId: '',
    deviceName: 'Victim Seeded 1',
    groupHashId: '',
    groupName: 'Victim group',
    partnershipHashId: '',
    issueHashId: '',
    issueTitle: 'Victim inverter fault',
    messageHashId: '',
    messageText: 'Victim internal note',
    destinationHashId: '',
    destinationName: 'Victim data lake',
    forwardingHashId: '',
    legalEntityHashId: '',
    legalEntityName: 'Victim Invoicing BV',
    invoiceHashId: '',
    invoicePublicId: '',
  };
  let b: { id: number; hashId: string };
  let actors: { name: string; actor: Actor }[];

  beforeAll(async () => {
    g = await testGraph();
    const victim = await anOrganization(g.services, { name: a.organizationName });
    a.organizationHashId = victim.hashId;
    a.userHashId = (
      await buildUser(g.services, { organizationHashId: victim.hashId, name: 'Victim User', email: a.userEmail, rights: ['customer.write'] })
    ).hashId;
    const ops = { ...systemActor('test'), rights: ['gridport.ops' as const], userId: null };
    const [invite] = await g.services.userInvites.create(ops, { organizationHashId: victim.hashId, emails: [a.inviteEmail] });
    a.inviteHashId = invite?.hashId ?? '';
    a.apiKeyHashId = (await buildApiKey(g.services, { organizationHashId: victim.hashId, name: a.apiKeyName })).hashId;

    const group = await buildDeviceGroup(g.services, { name: a.groupName, organizationHashId: victim.hashId });
    a.groupHashId = group.hashId;
    // Seeded with SQL, as a running device is: its config is in place, with nothing queued for it (the test checks A's outbox stays empty).
    const [deviceId] = await seedDevices(g.database.db, victim.id, 1, { deviceGroupId: group.id, namePrefix: 'Victim Seeded' });
    a.deviceHashId = g.hashIds.encode('device', deviceId ?? 0);
    const third = await anOrganization(g.services, { name: 'Third Party BV' });
    a.partnershipHashId = (
      await buildPartnership(g.services, {
        ownerOrganizationHashId: victim.hashId,
        partnerOrganizationHashId: third.hashId,
        role: 'operator',
        allDevices: true,
      })
    ).hashId;
    const issue = await buildIssue(g.services, { deviceHashId: a.deviceHashId, title: a.issueTitle });
    a.issueHashId = issue.hashId;
    a.messageHashId = (
      await g.services.issues.addMessage(systemActor('test'), {
        issueHashId: issue.hashId,
        message: a.messageText,
        isInternal: true,
        to: [],
        cc: [],
        fileIdentifiers: [],
      })
    ).hashId;
    const destination = await g.services.messageDestinations.create(systemActor('test'), {
      name: a.destinationName,
      organizationHashId: victim.hashId,
      outageEmails: [],
      outageUsersHashIds: [],
      destination: { type: 'http', url: 'https://1.1.1.1/victim' } as MessageDestinationCreate['destination'],
      monitorSettings: { enabled: true, maxLagSeconds: null },
    });
    a.destinationHashId = destination.hashId;
    a.forwardingHashId = (
      await g.services.groupForwarding.add(systemActor('test'), {
        deviceGroupHashId: group.hashId,
        messageDestinationHashId: destination.hashId,
        messageTypes: ['solarPower'],
        settings: { minIntervalSeconds: 0 },
      })
    ).hashId;
    a.legalEntityHashId = (
      await g.services.billingLegalEntities.create(systemActor('test'), {
        organizationHashId: victim.hashId,
        accountingContactId: null,
        companyName: a.legalEntityName,
        address1: null,
        address2: null,
        zipcode: null,
        city: null,
        country: 'NL',
        emails: [],
        chamberOfCommerce: null,
        taxNumber: null,
        isOrganizationDefault: false,
      })
    ).hashId;
    await insertCharge(g.database.db, {
      organizationId: victim.id,
      source: 'manual',
      description: 'Victim consultancy',
      billableAt: '2026-01-10T00:00:00Z',
      charge: 4_200,
    });
    const [invoice] = (await g.services.invoicing.runForOrganization(victim.id, new Date('2026-02-01T00:00:00Z'))).invoices;
    a.invoiceHashId = invoice?.hashId ?? '';
    a.invoicePublicId = invoice?.publicId ?? '';
    const prober = await anOrganization(g.services, { name: 'Prober BV' });
    b = { id: g.hashIds.decode('organization', prober.hashId) ?? 0, hashId: prober.hashId };
    actors = [
      { name: 'a console user of B', actor: customerActor(b.id, ['customer.read', 'customer.write']) },
      { name: 'an API key of B', actor: { kind: 'apiKey', userId: null, apiKeyId: 999, organizationId: b.id, rights: ['customer.write'], name: 'API key B' } },
    ];
  });

  afterAll(async () => {
    await g.close();
  });

  /** One probe per root field, aimed at A. */
  function probes(): Record<string, { query: string; variables?: Record<string, unknown> }> {
    return {
      apiKey: { query: 'query($h: ID!) { apiKey(hashId: $h) { hashId name } }', variables: { h: a.apiKeyHashId } },
      apiKeys: {
        query: 'query($o: String) { apiKeys(organizationHashId: $o) { rows { hashId name organizationName } } }',
        variables: { o: a.organizationHashId },
      },
      auditLog: { query: '{ auditLog { rows { objectHashId diff } } }' },
      me: { query: '{ me { name organization { hashId name } } }' },
      organization: { query: 'query($h: ID!) { organization(hashId: $h) { hashId name } }', variables: { h: a.organizationHashId } },
      organizations: { query: '{ organizations { rows { hashId name } } }' },
      user: { query: 'query($h: ID!) { user(hashId: $h) { hashId email } }', variables: { h: a.userHashId } },
      users: { query: 'query($o: String) { users(organizationHashId: $o) { rows { hashId email } } }', variables: { o: a.organizationHashId } },
      userInvites: { query: 'query($o: String) { userInvites(organizationHashId: $o) { rows { hashId email } } }', variables: { o: a.organizationHashId } },
      createApiKey: {
        query: 'mutation($o: ID!) { createApiKey(input: { organizationHashId: $o, name: "Stolen" }) { hashId apiKey } }',
        variables: { o: a.organizationHashId },
      },
      resetApiKey: { query: 'mutation($h: ID!) { resetApiKey(hashId: $h) { hashId apiKey } }', variables: { h: a.apiKeyHashId } },
      updateApiKey: { query: 'mutation($h: ID!) { updateApiKey(hashId: $h, input: { name: "Hijacked" }) }', variables: { h: a.apiKeyHashId } },
      deleteApiKey: { query: 'mutation($h: ID!) { deleteApiKey(hashId: $h) }', variables: { h: a.apiKeyHashId } },
      createOrganization: { query: 'mutation { createOrganization(input: { name: "Squatter", type: INSTALLER }) { hashId } }' },
      updateOrganization: {
        query: 'mutation($h: ID!) { updateOrganization(hashId: $h, input: { name: "Hijacked" }) { hashId name } }',
        variables: { h: a.organizationHashId },
      },
      login: { query: `mutation { login(input: { email: "${a.userEmail}", password: "not the password" }) { name } }` },
      logout: { query: 'mutation { logout }' },
      inviteUsers: {
        query: 'mutation($o: ID!) { inviteUsers(input: { organizationHashId: $o, emails: ["intruder@example.com"] }) { hashId } }',
        variables: { o: a.organizationHashId },
      },
      revokeUserInvite: { query: 'mutation($h: ID!) { revokeUserInvite(hashId: $h) }', variables: { h: a.inviteHashId } },
      updateUser: { query: 'mutation($h: ID!) { updateUser(hashId: $h, input: { name: "Hijacked" }) { hashId name } }', variables: { h: a.userHashId } },
      device: { query: 'query($h: ID!) { device(hashId: $h) { hashId name } }', variables: { h: a.deviceHashId } },
      devices: { query: '{ devices { count rows { hashId name organization { name } } } }' },
      deviceCount: { query: '{ deviceCount { totalCount } }' },
      deviceGroup: { query: 'query($h: ID!) { deviceGroup(hashId: $h) { hashId name } }', variables: { h: a.groupHashId } },
      deviceGroups: { query: 'query($o: String) { deviceGroups(organizationHashId: $o) { rows { hashId name } } }', variables: { o: a.organizationHashId } },
      partnerships: { query: '{ partnerships { rows { hashId owner { name } } } }' },
      updateDevice: { query: 'mutation($h: ID!) { updateDevice(hashId: $h, input: { name: "Hijacked" }) { name } }', variables: { h: a.deviceHashId } },
      updateDeviceOutageContacts: {
        query: 'mutation($h: ID!) { updateDeviceOutageContacts(hashId: $h, input: { outageEmails: ["spy@example.com"] }) { name } }',
        variables: { h: a.deviceHashId },
      },
      setSchedule: { query: 'mutation { setSchedule(input: { assetIdentifiers: ["pv-roof"], schedule: [] }) { deviceHashIds } }' },
      setParameters: {
        query: 'mutation { setParameters(input: { assetIdentifiers: ["furnace"], parameters: { type: "sagerFurnace", schedule: [] } }) { deviceHashIds } }',
      },
      createDeviceGroup: {
        query: 'mutation($o: ID!) { createDeviceGroup(input: { name: "Squat", organizationHashId: $o }) { hashId } }',
        variables: { o: a.organizationHashId },
      },
      updateDeviceGroup: {
        query: 'mutation($h: ID!) { updateDeviceGroup(hashId: $h, input: { name: "Hijacked" }) { name } }',
        variables: { h: a.groupHashId },
      },
      deleteDeviceGroup: { query: 'mutation($h: ID!) { deleteDeviceGroup(hashId: $h) }', variables: { h: a.groupHashId } },
      linkDeviceGroupApiKey: {
        query: 'mutation($g: ID!, $k: ID!) { linkDeviceGroupApiKey(deviceGroupHashId: $g, apiKeyHashId: $k) }',
        variables: { g: a.groupHashId, k: a.apiKeyHashId },
      },
      unlinkDeviceGroupApiKey: {
        query: 'mutation($g: ID!, $k: ID!) { unlinkDeviceGroupApiKey(deviceGroupHashId: $g, apiKeyHashId: $k) }',
        variables: { g: a.groupHashId, k: a.apiKeyHashId },
      },
      billingCharge: { query: 'query($h: ID!) { billingCharge(hashId: $h) { hashId description } }', variables: { h: a.deviceHashId } },
      billingCharges: {
        query: 'query($o: ID) { billingCharges(organizationHashId: $o) { rows { hashId description organization { name } } } }',
        variables: { o: a.organizationHashId },
      },
      billingForecast: {
        query: 'query($o: ID!) { billingForecast(organizationHashId: $o) { organization { name } unitCount } }',
        variables: { o: a.organizationHashId },
      },
      addBillingCharge: {
        query:
          'mutation($o: ID!) { addBillingCharge(input: { organizationHashId: $o, description: "Tap", charge: 1, ledgerAccount: SAAS }) { billingChargeHashId } }',
        variables: { o: a.organizationHashId },
      },
      removeBillingCharge: { query: 'mutation($h: ID!) { removeBillingCharge(hashId: $h) }', variables: { h: a.deviceHashId } },
      refundBillingCharge: { query: 'mutation($h: ID!) { refundBillingCharge(hashId: $h) { billingChargeHashId } }', variables: { h: a.deviceHashId } },
      messageDestination: { query: 'query($h: ID!) { messageDestination(hashId: $h) { hashId name } }', variables: { h: a.destinationHashId } },
      messageDestinations: {
        query: 'query($o: String) { messageDestinations(organizationHashId: $o) { rows { hashId name } } }',
        variables: { o: a.organizationHashId },
      },
      createMessageDestination: {
        query:
          'mutation($o: ID!) { createMessageDestination(input: { name: "Tap", organizationHashId: $o, destination: { type: "http", url: "https://1.1.1.1/tap" } }) { hashId } }',
        variables: { o: a.organizationHashId },
      },
      updateMessageDestination: {
        query: 'mutation($h: ID!) { updateMessageDestination(hashId: $h, input: { name: "Hijacked" }) { name } }',
        variables: { h: a.destinationHashId },
      },
      resumeMessageDestination: {
        query: 'mutation($h: ID!) { resumeMessageDestination(hashId: $h, offset: 0) { name } }',
        variables: { h: a.destinationHashId },
      },
      deviceGroupMessageDestination: {
        query: 'query($h: ID!) { deviceGroupMessageDestination(hashId: $h) { hashId deviceGroup { name } } }',
        variables: { h: a.forwardingHashId },
      },
      deviceGroupMessageDestinations: {
        query: 'query($g: String) { deviceGroupMessageDestinations(deviceGroupHashId: $g) { rows { hashId messageDestination { name } } } }',
        variables: { g: a.groupHashId },
      },
      addDeviceGroupMessageDestination: {
        query:
          'mutation($g: ID!, $d: ID!) { addDeviceGroupMessageDestination(input: { deviceGroupHashId: $g, messageDestinationHashId: $d, messageTypes: [ALARM] }) { hashId } }',
        variables: { g: a.groupHashId, d: a.destinationHashId },
      },
      updateDeviceGroupMessageDestination: {
        query: 'mutation($h: ID!) { updateDeviceGroupMessageDestination(hashId: $h, input: { messageTypes: [ALARM] }) { hashId } }',
        variables: { h: a.forwardingHashId },
      },
      removeDeviceGroupMessageDestination: {
        query: 'mutation($h: ID!) { removeDeviceGroupMessageDestination(hashId: $h) }',
        variables: { h: a.forwardingHashId },
      },
      updateDeviceInvoiceDetails: {
        query: 'mutation($h: ID!, $e: ID) { updateDeviceInvoiceDetails(hashId: $h, input: { billingLegalEntityHashId: $e }) { name } }',
        variables: { h: a.deviceHashId, e: a.legalEntityHashId },
      },
      billingLegalEntity: {
        query: 'query($h: ID!) { billingLegalEntity(hashId: $h) { hashId companyName } }',
        variables: { h: a.legalEntityHashId },
      },
      billingLegalEntities: {
        query: 'query($o: ID) { billingLegalEntities(organizationHashId: $o) { rows { hashId companyName } } }',
        variables: { o: a.organizationHashId },
      },
      createBillingLegalEntity: {
        query: 'mutation($o: ID!) { createBillingLegalEntity(input: { organizationHashId: $o, companyName: "Squat", country: "NL" }) { hashId } }',
        variables: { o: a.organizationHashId },
      },
      updateBillingLegalEntity: {
        query: 'mutation($h: ID!) { updateBillingLegalEntity(hashId: $h, input: { companyName: "Hijacked" }) { companyName } }',
        variables: { h: a.legalEntityHashId },
      },
      deleteBillingLegalEntity: { query: 'mutation($h: ID!) { deleteBillingLegalEntity(hashId: $h) }', variables: { h: a.legalEntityHashId } },
      createPartnership: {
        query:
          'mutation($o: ID!, $p: ID!) { createPartnership(input: { ownerOrganizationHashId: $o, partnerOrganizationHashId: $p, role: OPERATOR, allDevices: true }) { hashId } }',
        variables: { o: a.organizationHashId, p: b.hashId },
      },
      updatePartnership: {
        query: 'mutation($h: ID!) { updatePartnership(hashId: $h, input: { role: VIEWER }) { hashId } }',
        variables: { h: a.partnershipHashId },
      },
      deviceMeasurements: {
        query:
          'query($h: ID!) { deviceMeasurements(hashId: $h, field: "activePower", reportType: "meterPower", assetIndex: 2, from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z") { at avg } }',
        variables: { h: a.deviceHashId },
      },
      deletePartnership: { query: 'mutation($h: ID!) { deletePartnership(hashId: $h) }', variables: { h: a.partnershipHashId } },
      billingInvoice: {
        query: 'query($h: ID!) { billingInvoice(hashId: $h) { hashId publicId pdfUrl charges { description } } }',
        variables: { h: a.invoiceHashId },
      },
      billingInvoices: {
        query: 'query($o: String) { billingInvoices(organizationHashId: $o) { rows { hashId publicId } } }',
        variables: { o: a.organizationHashId },
      },
      issues: { query: '{ issues { rows { hashId title } } }' },
      issue: { query: 'query($h: ID!) { issue(hashId: $h) { hashId title } }', variables: { h: a.issueHashId } },
      issueTimeline: { query: 'query($h: ID!) { issueTimeline(hashId: $h) { rows { message { message } } } }', variables: { h: a.issueHashId } },
      issueCount: { query: '{ issueCount { openCount } }' },
      updateIssue: { query: 'mutation($h: ID!) { updateIssue(hashId: $h, input: { title: "Hijacked" }) { title } }', variables: { h: a.issueHashId } },
      resolveIssue: { query: 'mutation($h: ID!) { resolveIssue(hashId: $h) { title } }', variables: { h: a.issueHashId } },
      reopenIssue: { query: 'mutation($h: ID!) { reopenIssue(hashId: $h) { title } }', variables: { h: a.issueHashId } },
      addIssueMessage: {
        query: 'mutation($h: ID!) { addIssueMessage(input: { issueHashId: $h, message: "Intruder" }) { hashId } }',
        variables: { h: a.issueHashId },
      },
      updateIssueMessage: { query: 'mutation($h: ID!) { updateIssueMessage(hashId: $h, message: "Hijacked") { message } }', variables: { h: a.messageHashId } },
      subscribeToIssue: { query: 'mutation($h: ID!) { subscribeToIssue(hashId: $h) { title } }', variables: { h: a.issueHashId } },
      unsubscribeFromIssue: { query: 'mutation($h: ID!) { unsubscribeFromIssue(hashId: $h) { title } }', variables: { h: a.issueHashId } },
      addIssueSubscribers: {
        query: 'mutation($h: ID!, $u: [ID!]!) { addIssueSubscribers(hashId: $h, userHashIds: $u) { title } }',
        variables: { h: a.issueHashId, u: [a.userHashId] },
      },
      removeIssueSubscribers: {
        query: 'mutation($h: ID!, $u: [ID!]!) { removeIssueSubscribers(hashId: $h, userHashIds: $u) { title } }',
        variables: { h: a.issueHashId, u: [a.userHashId] },
      },
    };
  }

  it('has a probe for every root field of the graph', () => {
    const roots = [g.graphql.schema.getQueryType(), g.graphql.schema.getMutationType(), g.graphql.schema.getSubscriptionType()];
    const fields = roots.flatMap((root) => (root && isObjectType(root) ? Object.keys(root.getFields()) : []));
    expect(fields.filter((field) => !(field in probes()))).toEqual([]);
  });

  it('refuses each probe or answers nothing of A, for a console user and an API key of B', async () => {
    const markers = [
      a.organizationHashId,
      a.organizationName,
      a.userHashId,
      a.userEmail,
      a.inviteHashId,
      a.inviteEmail,
      a.apiKeyHashId,
      a.apiKeyName,
      a.deviceHashId,
      a.deviceName,
      a.groupHashId,
      a.groupName,
      a.partnershipHashId,
      a.issueHashId,
      a.issueTitle,
      a.messageHashId,
      a.messageText,
      a.destinationHashId,
      a.destinationName,
      a.forwardingHashId,
      a.legalEntityHashId,
      a.legalEntityName,
      a.invoiceHashId,
      a.invoicePublicId,
    ];
    const refusals = new Set(['forbidden', 'not_found', 'forbidden_organization', 'unauthorized', 'invalid_credentials', 'unknown_identifier']);
    for (const { name, actor } of actors) {
      for (const [field, probe] of Object.entries(probes())) {
        const result = await g.execute(actor, probe.query, probe.variables);
        const codes = (result.errors ?? []).map((error) => String(error.extensions?.code));
        const leaked = markers.filter((marker) => JSON.stringify(result.data ?? null).includes(marker));
        expect({ actor: name, field, leaked, unexpected: codes.filter((code) => !refusals.has(code)) }).toEqual({
          actor: name,
          field,
          leaked: [],
          unexpected: [],
        });
      }
    }
  });

  it('leaves A as it was', async () => {
    const staff = { ...systemActor('test'), rights: ['gridport.admin' as const] };
    expect((await g.services.organizations.get(staff, a.organizationHashId)).name).toBe(a.organizationName);
    expect((await g.services.apiKeys.get({ ...staff, kind: 'user', userId: 1 }, a.apiKeyHashId)).name).toBe(a.apiKeyName);
    const invites = await g.services.userInvites.list(staff, { organizationHashId: a.organizationHashId, filter: '', rowsPerPage: 500 });
    expect(invites.rows.map((row) => row.email)).toEqual([a.inviteEmail]);
    const users = await g.services.users.list(staff, { organizationHashId: a.organizationHashId, filter: '', rowsPerPage: 500 });
    expect(users.rows.map((row) => row.email)).toEqual([a.userEmail]);
    const organizations = await g.services.organizations.list(staff, { filter: '', rowsPerPage: 500 });
    expect(organizations.rows.map((row) => row.name)).not.toContain('Squatter');
    const device = await g.services.devices.get(staff, a.deviceHashId);
    expect({ name: device.name, outageEmails: device.outageEmails }).toEqual({ name: a.deviceName, outageEmails: [] });
    expect(await g.services.deviceOutbox.pending(g.hashIds.decode('device', a.deviceHashId) ?? 0)).toEqual([]);
    expect((await g.services.deviceGroups.get(staff, a.groupHashId)).name).toBe(a.groupName);
    const partnerships = await g.services.partnerships.list(staff, { filter: '', organizationHashId: a.organizationHashId, rowsPerPage: 50 });
    expect(partnerships.rows.map((row) => [row.hashId, row.role, row.partner.name])).toEqual([[a.partnershipHashId, 'operator', 'Third Party BV']]);
    expect((await g.services.messageDestinations.get(staff, a.destinationHashId)).name).toBe(a.destinationName);
    expect((await g.services.groupForwarding.get(staff, a.forwardingHashId)).messageTypes).toEqual(['solarPower']);
    const forwardings = await g.services.groupForwarding.list(staff, { deviceGroupHashId: a.groupHashId, rowsPerPage: 50 });
    expect(forwardings.rows.map((row) => row.hashId)).toEqual([a.forwardingHashId]);
    expect((await g.services.billingLegalEntities.get(staff, a.legalEntityHashId)).companyName).toBe(a.legalEntityName);
    expect((await g.services.devices.get(staff, a.deviceHashId)).billingLegalEntity).toBeNull();
    const issue = await g.services.issues.get(staff, a.issueHashId);
    expect({ title: issue.title, status: issue.status, messageCount: issue.messageCount }).toEqual({ title: a.issueTitle, status: 'open', messageCount: 1 });
  });
});
