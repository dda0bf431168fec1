import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildDevice } from '../../test-support/factories';

type X509Crypto = NonNullable<Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[1]>;
const crypto = webcrypto as unknown as X509Crypto;
const url = '/v1/device/provision/cert';

/** A PKCS#10 CSR on a new P-256 key with this subject. */
async function aCsr(name: x509.JsonName): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name, keys, signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } }, crypto);
  return csr.toString('pem');
}

const deviceCsr = (identifier: string) => aCsr([{ CN: [identifier] }, { OU: [identifier] }, { O: ['device'] }]);

describe('POST /v1/device/provision/cert', () => {
  let t: TestApp;
  let organizationHashId: string;
  let ops: string;

  beforeAll(async () => {
    t = await testApp();
    organizationHashId = (await anOrganization(t.services, { name: 'Provisioning BV' })).hashId;
    ops = await t.signIn(['gridport.ops']);
  });

  afterAll(async () => {
    await t.close();
  });

  async function ship(): Promise<{ hashId: string; provisioningToken: string }> {
    return buildDevice(t.services, { organizationHashId });
  }

  function post(payload: unknown) {
    return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
  }

  it('issues a certificate of the platform CA for the OU, which becomes the device identifier', async () => {
    const { hashId, provisioningToken } = await ship();
    const response = await post({ csr: await deviceCsr('site-amsterdam-1'), token: provisioningToken });
    expect(response.statusCode).toBe(201);
    const body = response.json() as { cert: string; caCertificate: string };
    expect(Object.keys(body).sort()).toEqual(['caCertificate', 'cert']);

    const certificate = new x509.X509Certificate(body.cert);
    const ca = new x509.X509Certificate(body.caCertificate);
    expect(await certificate.verify({ publicKey: ca.publicKey, date: new Date() }, crypto)).toBe(true);
    expect(certificate.issuer).toBe(ca.subject);
    expect(certificate.subjectName.getField('OU')).toEqual(['site-amsterdam-1']);
    expect(certificate.subjectName.getField('O')).toEqual(['device']);
    expect(certificate.subjectName.getField('CN')).toEqual(['site-amsterdam-1']);
    expect(certificate.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([x509.ExtendedKeyUsage.clientAuth]);
    expect(certificate.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.digitalSignature);
    expect(certificate.notAfter.getUTCFullYear() - certificate.notBefore.getUTCFullYear()).toBe(10);
    expect(ca.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(true);
    expect(ca.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    expect(ca.notAfter.getUTCFullYear() - ca.notBefore.getUTCFullYear()).toBe(20);

    const device = await t.call('GET', `/console-admin/v1/device/${hashId}`, ops);
    expect(device.statusCode).toBe(200);
    expect(device.json()).toMatchObject({ identifier: 'site-amsterdam-1' });

    const id = t.hashIds.decode('device', hashId);
    const row = await t.database.db('devices').where({ id }).first();
    expect(row).toMatchObject({ open_for_provisioning: false, provisioning_token_hash: null, certificate_serial: certificate.serialNumber });
    const audit = await t.database.db('audit_log').where({ object_type: 'devices', object_id: id, change_type: 'controllerUpdate' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_kind: 'anonymous', actor_name: 'device provisioning' });
  });

  it('refuses a token that was used with 401 unauthorized', async () => {
    const { provisioningToken } = await ship();
    expect((await post({ csr: await deviceCsr('used-token'), token: provisioningToken })).statusCode).toBe(201);
    const again = await post({ csr: await deviceCsr('used-token-2'), token: provisioningToken });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ key: 'unauthorized' });
  });

  it('refuses an unknown token with 401 unauthorized', async () => {
    const response = await post({ csr: await deviceCsr('unknown-token'), token: 'not-a-token' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ key: 'unauthorized' });
  });

  it('lets 50 parallel requests with one token succeed exactly once', async () => {
    const { hashId, provisioningToken } = await ship();
    const csrs = await Promise.all(Array.from({ length: 50 }, (_, index) => deviceCsr(`racer-${index}`)));
    const responses = await Promise.all(csrs.map((csr) => post({ csr, token: provisioningToken })));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(49);
    expect(responses.filter((response) => response.statusCode === 401).every((response) => (response.json() as { key: string }).key === 'unauthorized')).toBe(
      true,
    );

    const winner = responses.find((response) => response.statusCode === 201);
    const identifier = new x509.X509Certificate((winner?.json() as { cert: string }).cert).subjectName.getField('OU')[0];
    const row = await t.database
      .db('devices')
      .where({ id: t.hashIds.decode('device', hashId) })
      .first();
    expect(row.identifier).toBe(identifier);
    expect(await t.database.db('audit_log').where({ object_id: row.id, change_type: 'controllerUpdate' })).toHaveLength(1);
  });

  it('refuses an O other than "device" with 401 invalid_csr_subject_o', async () => {
    const { provisioningToken } = await ship();
    const names: x509.JsonName[] = [[{ OU: ['wrong-o'] }, { O: ['Device'] }], [{ OU: ['wrong-o'] }], [{ OU: ['wrong-o'] }, { O: ['device', 'other'] }]];
    for (const name of names) {
      const response = await post({ csr: await aCsr(name), token: provisioningToken });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ key: 'invalid_csr_subject_o' });
    }
    // The token is not spent by a refused CSR.
    expect((await post({ csr: await deviceCsr('wrong-o'), token: provisioningToken })).statusCode).toBe(201);
  });

  it('refuses an OU outside [a-z0-9-]{1,100} with 401 csr_subject_ou_invalid', async () => {
    const { provisioningToken } = await ship();
    const names: x509.JsonName[] = [
      [{ OU: ['Upper-Case'] }, { O: ['device'] }],
      [{ OU: ['under_score'] }, { O: ['device'] }],
      [{ OU: ['a'.repeat(101)] }, { O: ['device'] }],
      [{ CN: ['no-ou'] }, { O: ['device'] }],
      [{ OU: ['one', 'two'] }, { O: ['device'] }],
    ];
    for (const name of names) {
      const response = await post({ csr: await aCsr(name), token: provisioningToken });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ key: 'csr_subject_ou_invalid' });
    }
    expect((await post({ csr: await deviceCsr('a'.repeat(100)), token: provisioningToken })).statusCode).toBe(201);
  });

  it('refuses an OU that is the identifier of another device with 401 csr_subject_ou_already_exists, leaving the token unspent', async () => {
    const first = await ship();
    const second = await ship();
    expect((await post({ csr: await deviceCsr('taken'), token: first.provisioningToken })).statusCode).toBe(201);
    const response = await post({ csr: await deviceCsr('taken'), token: second.provisioningToken });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ key: 'csr_subject_ou_already_exists' });
    expect((await post({ csr: await deviceCsr('not-taken'), token: second.provisioningToken })).statusCode).toBe(201);
  });

  it('gives one of two devices racing for one identifier the certificate, the other csr_subject_ou_already_exists', async () => {
    const [first, second] = await Promise.all([ship(), ship()]);
    const responses = await Promise.all(
      [first, second].map(async ({ provisioningToken }) => post({ csr: await deviceCsr('contested'), token: provisioningToken })),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 401]);
    expect(responses.find((response) => response.statusCode === 401)?.json()).toMatchObject({ key: 'csr_subject_ou_already_exists' });
  });

  it('refuses a CSR that does not parse with 400 payload_invalid', async () => {
    const { provisioningToken } = await ship();
    const response = await post({ csr: 'not a csr', token: provisioningToken });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ key: 'payload_invalid', details: [{ path: 'csr', message: 'csr must be a PEM-encoded PKCS#10 certificate request' }] });
  });

  it('refuses a CSR whose signature does not verify with 400 payload_invalid', async () => {
    const { provisioningToken } = await ship();
    const der = new Uint8Array(x509.PemConverter.decodeFirst(await deviceCsr('forged')));
    // The last byte belongs to the signature's s value.
    der[der.length - 1] = (der[der.length - 1] ?? 0) ^ 0xff;
    const response = await post({ csr: x509.PemConverter.encode(der, 'CERTIFICATE REQUEST'), token: provisioningToken });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      key: 'payload_invalid',
      details: [{ path: 'csr', message: 'the signature of the certificate request does not verify with its public key' }],
    });
  });

  it('refuses a body with other fields or without a token with 400 payload_invalid', async () => {
    const csr = await deviceCsr('body-shape');
    for (const payload of [{ csr }, { csr, token: 'x', identifier: 'y' }, { csr: '', token: 'x' }]) {
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ key: 'payload_invalid' });
    }
  });

  it('refuses a token or CSR that is not a string with 400 payload_invalid, not 401, leaving the token unspent', async () => {
    const { provisioningToken } = await ship();
    const csr = await deviceCsr('typed-token');
    const digits = /^\d+$/.test(provisioningToken) ? Number(provisioningToken) : 12345;
    const cases: { name: string; payload: Record<string, unknown>; path: string }[] = [
      { name: 'a number token', payload: { csr, token: digits }, path: 'token' },
      { name: 'a boolean token', payload: { csr, token: true }, path: 'token' },
      { name: 'an array token', payload: { csr, token: [provisioningToken] }, path: 'token' },
      { name: 'an object token', payload: { csr, token: { value: provisioningToken } }, path: 'token' },
      { name: 'a number CSR', payload: { csr: 42, token: provisioningToken }, path: 'csr' },
    ];
    for (const { name, payload, path } of cases) {
      const response = await post(payload);
      expect({ name, status: response.statusCode, body: response.json() }).toEqual({
        name,
        status: 400,
        body: { key: 'payload_invalid', details: [{ path, message: `${path} must be a string` }] },
      });
    }
    expect((await post({ csr, token: provisioningToken })).statusCode).toBe(201);
  });

  it('is in the OpenAPI document as a public route answering cert and caCertificate', async () => {
    const document = (await t.call('GET', '/openapi.json')).json() as {
      paths: Record<
        string,
        Record<
          string,
          { security?: unknown; responses: Record<string, { content?: { 'application/json'?: { schema?: { properties?: Record<string, unknown> } } } }> }
        >
      >;
    };
    const operation = document.paths[url]?.post;
    expect(operation?.security).toBeUndefined();
    expect(Object.keys(operation?.responses['201']?.content?.['application/json']?.schema?.properties ?? {}).sort()).toEqual(['caCertificate', 'cert']);
  });
});
