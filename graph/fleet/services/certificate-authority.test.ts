import { createHash, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { createServices } from '../../services';
import { testApp, testSecrets, type TestApp } from '../../../test-support/app';
import { anOrganization, buildDevice } from '../../../test-support/factories';
import { CertificateAuthority, certificateFingerprint, generateAuthority, readDeviceCertificate, verifyChallenge } from './certificate-authority';

type X509Crypto = NonNullable<Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[1]>;
const crypto = webcrypto as unknown as X509Crypto;
const ecdsaP256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

async function aKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ecdsaP256, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

async function csrFor(identifier: string, keys: webcrypto.CryptoKeyPair): Promise<string> {
  const csr = await x509.Pkcs10CertificateRequestGenerator.create(
    { name: [{ CN: [identifier] }, { OU: [identifier] }, { O: ['device'] }], keys, signingAlgorithm: ecdsaSha256 },
    crypto,
  );
  return csr.toString('pem');
}

describe('the platform CA and device certificates', () => {
  let t: TestApp;
  let organizationHashId: string;

  beforeAll(async () => {
    t = await testApp();
    organizationHashId = (await anOrganization(t.services, { name: 'Certificates BV' })).hashId;
  });

  afterAll(async () => {
    await t.close();
  });

  /** A shipped device provisioned as `identifier`: its id, key pair and certificate. */
  async function provisioned(identifier: string) {
    const { id, provisioningToken } = await buildDevice(t.services, { organizationHashId });
    const keys = await aKeyPair();
    const { cert } = await t.services.provisioning.provision({ csr: await csrFor(identifier, keys), token: provisioningToken });
    return { deviceId: id, keys, cert };
  }

  function otherServices() {
    return createServices({ db: t.database.db, hashIds: t.hashIds, sessionSecret: testSecrets.sessionSecret, encryptionKey: testSecrets.encryptionKey });
  }

  it('is kept in the database: another node on the same database signs with the same CA', async () => {
    const ca = await t.services.provisioning.caCertificatePem();
    const other = otherServices();
    expect(await other.provisioning.caCertificatePem()).toBe(ca);

    const { provisioningToken } = await buildDevice(other, { organizationHashId });
    const { cert, caCertificate } = await other.provisioning.provision({ csr: await csrFor('second-node', await aKeyPair()), token: provisioningToken });
    expect(caCertificate).toBe(ca);
    expect(await new x509.X509Certificate(cert).verify({ publicKey: new x509.X509Certificate(ca).publicKey }, crypto)).toBe(true);
    other.mail.close();

    const row = await t.database.db('certificate_authorities').first();
    expect(JSON.stringify(row.private_key)).not.toContain('PRIVATE KEY');
  });

  it('verifyDeviceCertificate accepts the certificate it issued, with the key that checks the device’s challenge', async () => {
    const { deviceId, keys, cert } = await provisioned('verified-gateway');
    const verified = await t.services.provisioning.verifyDeviceCertificate(cert);
    expect(verified).toMatchObject({ identifier: 'verified-gateway', deviceId });

    const nonce = webcrypto.getRandomValues(new Uint8Array(32));
    const signature = Buffer.from(await webcrypto.subtle.sign(ecdsaSha256, keys.privateKey, nonce)).toString('base64');
    const nonceBase64 = Buffer.from(nonce).toString('base64');
    expect(await verifyChallenge(verified?.publicKey as KeyObject, nonceBase64, signature)).toBe(true);
    expect(await verifyChallenge(verified?.publicKey as KeyObject, Buffer.from('another nonce').toString('base64'), signature)).toBe(false);
  });

  it('verifyDeviceCertificate takes the fingerprint recorded for the device as proof of issue, and refuses a certificate no device records', async () => {
    const { deviceId, keys } = await provisioned('foreign-ca');
    const generated = await generateAuthority();
    const foreign = await CertificateAuthority.load(generated.certificatePem, generated.privateKeyPem);
    const issued = await foreign.issue({ identifier: 'foreign-ca', publicKey: keys.publicKey });
    const authority = await t.services.provisioning.authority();
    const facts = readDeviceCertificate(issued.pem);
    expect(facts && authority.signed(facts)).toBe(false);
    // Not recorded: refused, whatever signed it.
    expect(await t.services.provisioning.verifyDeviceCertificate(issued.pem)).toBeNull();
    // Recorded on the device's row (only provisioning writes it, for the certificate it has just issued): the fingerprint proves it, the CA signature is not checked again.
    await t.database.db('devices').where({ id: deviceId }).update({ certificate_fingerprint: issued.fingerprint });
    expect(await t.services.provisioning.verifyDeviceCertificate(issued.pem)).toMatchObject({ identifier: 'foreign-ca', deviceId });
  });

  it('the CA signed what it issued, and not a certificate of another CA with the same name', async () => {
    const { keys, cert } = await provisioned('signed-by-ca');
    const authority = await t.services.provisioning.authority();
    const generated = await generateAuthority();
    const foreign = await CertificateAuthority.load(generated.certificatePem, generated.privateKeyPem);
    const forged = await foreign.issue({ identifier: 'signed-by-ca', publicKey: keys.publicKey });
    const ours = readDeviceCertificate(cert);
    const theirs = readDeviceCertificate(forged.pem);
    expect(ours).toMatchObject({ identifier: 'signed-by-ca', organization: 'device' });
    expect(ours?.fingerprint).toBe(certificateFingerprint(new x509.X509Certificate(cert)));
    expect(ours && authority.vouchesFor(ours)).toBe(true);
    expect(ours && authority.vouchesFor(ours, new Date(Date.now() + 11 * 365 * 24 * 60 * 60 * 1000))).toBe(false);
    expect(theirs && new X509Certificate(theirs.der).issuer).toBe(ours && new X509Certificate(ours.der).issuer);
    expect(theirs && authority.signed(theirs)).toBe(false);
  });

  it('verifyDeviceCertificate refuses an expired certificate, and one used after its validity', async () => {
    const { deviceId, keys, cert } = await provisioned('expired-gateway');
    const authority = await t.services.provisioning.authority();
    const day = 24 * 60 * 60 * 1000;
    const expired = await authority.issue({
      identifier: 'expired-gateway',
      publicKey: keys.publicKey,
      notBefore: new Date(Date.now() - 20 * day),
      notAfter: new Date(Date.now() - day),
    });
    await t.database.db('devices').where({ id: deviceId }).update({ certificate_fingerprint: expired.fingerprint });
    expect(await t.services.provisioning.verifyDeviceCertificate(expired.pem)).toBeNull();

    await t.database
      .db('devices')
      .where({ id: deviceId })
      .update({ certificate_fingerprint: certificateFingerprint(new x509.X509Certificate(cert)) });
    expect(await t.services.provisioning.verifyDeviceCertificate(cert)).not.toBeNull();
    expect(await t.services.provisioning.verifyDeviceCertificate(cert, new Date(Date.now() + 11 * 365 * day))).toBeNull();
  });

  it('verifyDeviceCertificate refuses the old certificate of a re-provisioned device', async () => {
    const { deviceId, cert: old } = await provisioned('reprovisioned');
    const token = 'a-new-provisioning-token';
    await t.database
      .db('devices')
      .where({ id: deviceId })
      .update({ open_for_provisioning: true, provisioning_token_hash: createHash('sha256').update(token).digest('hex') });
    const { cert: renewed } = await t.services.provisioning.provision({ csr: await csrFor('reprovisioned', await aKeyPair()), token });

    expect(await t.services.provisioning.verifyDeviceCertificate(old)).toBeNull();
    expect(await t.services.provisioning.verifyDeviceCertificate(renewed)).toMatchObject({ identifier: 'reprovisioned', deviceId });
  });

  it('verifyDeviceCertificate refuses what is not a certificate', async () => {
    expect(await t.services.provisioning.verifyDeviceCertificate('garbage')).toBeNull();
    expect(await t.services.provisioning.verifyDeviceCertificate(await t.services.provisioning.caCertificatePem())).toBeNull();
  });
});

describe('the platform CA on a new database', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('is created once when nodes start together', async () => {
    expect(await t.database.db('certificate_authorities')).toEqual([]);
    const nodes = Array.from({ length: 5 }, () =>
      createServices({ db: t.database.db, hashIds: t.hashIds, sessionSecret: testSecrets.sessionSecret, encryptionKey: testSecrets.encryptionKey }),
    );
    const cas = await Promise.all([t.services, ...nodes].map((node) => node.provisioning.caCertificatePem()));
    expect(new Set(cas).size).toBe(1);
    expect(await t.database.db('certificate_authorities').select('certificate')).toEqual([{ certificate: cas[0] }]);
    nodes.forEach((node) => node.mail.close());
  });
});
