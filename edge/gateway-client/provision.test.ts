import { webcrypto, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import { GridportError } from '../../contracts/errors';
import { verifyChallenge } from '../../graph/fleet/services/certificate-authority';
import { testApp, type TestApp } from '../../test-support/app';
import { anOrganization, buildDevice } from '../../test-support/factories';
import { loadIdentity, provision, signChallenge } from './provision';

describe('gateway provisioning against the real server', () => {
  let t: TestApp;
  let baseUrl: string;
  let organizationHashId: string;
  let directory: string;

  beforeAll(async () => {
    t = await testApp();
    baseUrl = await t.listen();
    organizationHashId = (await anOrganization(t.services, { name: 'Edge BV' })).hashId;
    // Setting up the server and its database is the slow part on a busy machine.
  }, 120_000);

  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'gridport-edge-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  afterAll(async () => {
    await t.close();
  });

  async function aToken(): Promise<string> {
    return (await buildDevice(t.services, { organizationHashId })).provisioningToken;
  }

  it('stores key.pem (0600), cert.pem and ca.pem, loads them back, and signs challenges the hub accepts', async () => {
    const identity = await provision({ baseUrl, token: await aToken(), identifier: 'edge-gateway-1', directory });
    expect((await stat(path.join(directory, 'key.pem'))).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(directory, 'key.pem'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(await readFile(path.join(directory, 'cert.pem'), 'utf8')).toBe(identity.certificatePem);
    expect(await readFile(path.join(directory, 'ca.pem'), 'utf8')).toBe(await t.services.provisioning.caCertificatePem());
    expect(new x509.X509Certificate(identity.certificatePem).subjectName.getField('OU')).toEqual(['edge-gateway-1']);

    const loaded = await loadIdentity(directory);
    expect(loaded.certificatePem).toBe(identity.certificatePem);
    expect(loaded.caPem).toBe(identity.caPem);

    const verified = await t.services.provisioning.verifyDeviceCertificate(loaded.certificatePem);
    expect(verified?.identifier).toBe('edge-gateway-1');
    const nonce = Buffer.from(webcrypto.getRandomValues(new Uint8Array(32))).toString('base64');
    const signature = await signChallenge(loaded.privateKey, nonce);
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    expect(await verifyChallenge(verified?.publicKey as KeyObject, nonce, signature)).toBe(true);
  });

  it('throws the server’s refusal and writes nothing: a used token is unauthorized', async () => {
    const token = await aToken();
    await provision({ baseUrl, token, identifier: 'edge-used-token', directory });
    const again = await mkdtemp(path.join(tmpdir(), 'gridport-edge-'));
    try {
      const refusal = provision({ baseUrl, token, identifier: 'edge-used-token-2', directory: again });
      await expect(refusal).rejects.toBeInstanceOf(GridportError);
      await expect(refusal).rejects.toMatchObject({ key: 'unauthorized' });
      await expect(stat(path.join(again, 'key.pem'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(again, { recursive: true, force: true });
    }
  });

  it('refuses an identifier outside [a-z0-9-]{1,100} before asking the server', async () => {
    await expect(provision({ baseUrl, token: await aToken(), identifier: 'Not_Valid', directory })).rejects.toMatchObject({ key: 'csr_subject_ou_invalid' });
  });
});
