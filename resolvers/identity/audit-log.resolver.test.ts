import { anonymousActor } from '../../graph/common/context';
import { customerActor, staffActor, testGraph, type TestGraph } from '../../test-support/graphql';

const auditLog = `
  query AuditLog($objectType: AuditObjectType, $objectHashId: ID, $transactionIdentifier: String, $offset: String, $rowsPerPage: Int) {
    auditLog(objectType: $objectType, objectHashId: $objectHashId, transactionIdentifier: $transactionIdentifier, offset: $offset, rowsPerPage: $rowsPerPage) {
      rows { hashId transactionIdentifier objectHashId objectType changeType diff user { hashId name } actorName createdAt }
      nextPageOffset
    }
  }
`;

interface AuditLogData {
  auditLog: {
    rows: {
      hashId: string;
      transactionIdentifier: string;
      objectHashId: string;
      objectType: string;
      changeType: string;
      diff: unknown[];
      user: { hashId: string; name: string } | null;
      actorName: string;
      createdAt: string;
    }[];
    nextPageOffset: string | null;
  };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the audit log over GraphQL', () => {
  let t: TestGraph;
  const ops = staffActor();
  let organizationHashId = '';

  beforeAll(async () => {
    t = await testGraph();
    const created = await t.execute<{ createOrganization: { hashId: string } }>(
      ops,
      `mutation { createOrganization(input: { name: "Audited", type: INSTALLER, subscriptionDefaults: { chargePeriod: 1, runtime: 24 } }) { hashId } }`,
    );
    organizationHashId = created.data?.createOrganization.hashId ?? '';
    await t.execute(
      ops,
      `mutation($hashId: ID!) { updateOrganization(hashId: $hashId, input: { name: "Audited twice", invoiceFrequency: DAILY }) { hashId } }`,
      {
        hashId: organizationHashId,
      },
    );
  });

  afterAll(async () => {
    await t.close();
  });

  it('shows the rows an organisation create and update produced, newest first, with typed diff entries', async () => {
    const result = await t.execute<AuditLogData>(ops, auditLog, { objectType: 'ORGANIZATIONS', objectHashId: organizationHashId });
    expect(result.errors).toBeUndefined();
    const user = { hashId: t.hashIds.encode('user', 7), name: 'Ops' };
    expect(result.data?.auditLog).toEqual({
      rows: [
        {
          hashId: expect.any(String),
          transactionIdentifier: expect.stringMatching(uuid),
          objectHashId: organizationHashId,
          objectType: 'ORGANIZATIONS',
          changeType: 'CONTROLLER_UPDATE',
          diff: [
            { type: 'string', name: 'name', oldValue: 'Audited', newValue: 'Audited twice' },
            { type: 'string', name: 'invoiceFrequency', oldValue: 'monthly', newValue: 'daily' },
          ],
          user,
          actorName: 'Ops',
          createdAt: expect.any(String),
        },
        {
          hashId: expect.any(String),
          transactionIdentifier: expect.stringMatching(uuid),
          objectHashId: organizationHashId,
          objectType: 'ORGANIZATIONS',
          changeType: 'CONTROLLER_CREATE',
          diff: [
            { type: 'string', name: 'name', oldValue: null, newValue: 'Audited' },
            { type: 'string', name: 'type', oldValue: null, newValue: 'installer' },
            { type: 'string', name: 'invoiceFrequency', oldValue: null, newValue: 'monthly' },
            { type: 'boolean', name: 'requireLegalEntityPerDevice', oldValue: null, newValue: false },
            { type: 'boolean', name: 'requireCustomerReferencePerDevice', oldValue: null, newValue: false },
            { type: 'json', name: 'subscriptionDefaults', oldValue: null, newValue: { chargePeriod: 1, runtime: 24 } },
          ],
          user,
          actorName: 'Ops',
          createdAt: expect.any(String),
        },
      ],
      nextPageOffset: null,
    });
  });

  it('filters by transaction identifier', async () => {
    const all = await t.execute<AuditLogData>(ops, auditLog, { objectType: 'ORGANIZATIONS', objectHashId: organizationHashId });
    const update = all.data?.auditLog.rows[0];
    const result = await t.execute<AuditLogData>(ops, auditLog, { transactionIdentifier: update?.transactionIdentifier });
    expect(result.data?.auditLog.rows.map((row) => row.hashId)).toEqual([update?.hashId]);
  });

  it('pages with nextPageOffset', async () => {
    const page1 = await t.execute<AuditLogData>(ops, auditLog, { objectType: 'ORGANIZATIONS', objectHashId: organizationHashId, rowsPerPage: 1 });
    expect(page1.data?.auditLog.rows.map((row) => row.changeType)).toEqual(['CONTROLLER_UPDATE']);
    const page2 = await t.execute<AuditLogData>(ops, auditLog, {
      objectType: 'ORGANIZATIONS',
      objectHashId: organizationHashId,
      rowsPerPage: 1,
      offset: page1.data?.auditLog.nextPageOffset,
    });
    expect(page2.data?.auditLog.rows.map((row) => row.changeType)).toEqual(['CONTROLLER_CREATE']);
  });

  it('refuses an object hash id without its object type with query_invalid', async () => {
    const result = await t.execute(ops, auditLog, { objectHashId: organizationHashId });
    expect(result.errors?.map((error) => [error.message, error.extensions])).toEqual([
      ['The query string is invalid.', { code: 'query_invalid', details: [{ path: 'objectHashId', message: 'objectHashId needs objectType' }] }],
    ]);
  });

  it('refuses a transaction identifier that is not a UUID with query_invalid', async () => {
    const result = await t.execute(ops, auditLog, { transactionIdentifier: 'yesterday' });
    expect(result.errors?.[0]?.extensions).toEqual({
      code: 'query_invalid',
      details: [{ path: 'transactionIdentifier', message: 'transactionIdentifier must be a valid UUID' }],
    });
  });

  it('answers forbidden to a customer and unauthorized to the anonymous actor', async () => {
    const customer = await t.execute(customerActor(1, ['customer.read', 'customer.write']), auditLog);
    expect(customer.errors?.[0]?.extensions).toEqual({ code: 'forbidden', details: { required: ['gridport.employee'] } });
    const anonymous = await t.execute(anonymousActor, auditLog);
    expect(anonymous.errors?.[0]?.extensions).toEqual({ code: 'unauthorized' });
  });
});
