import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { GridportError } from '../../../contracts/errors';
import { DevIdentityProvider, loadOrCreateSigningKeyPair, readAuthnRequest } from './dev-identity-provider';

const authnRequest = (xml: string) => deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64');

describe('the development identity provider', () => {
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-dev-idp-'));
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('makes its key pair on first start, keeps it private in the data folder, and reuses it', async () => {
    const file = path.join(folder, 'dev-identity-provider.json');
    const first = await loadOrCreateSigningKeyPair(file);
    expect(first.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(first.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateSigningKeyPair(file)).toEqual(first);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
  });

  it('signs the assertion of its response (RSA-SHA256, exclusive c14n, enveloped) so its certificate verifies it', async () => {
    const keys = await loadOrCreateSigningKeyPair(null);
    const provider = new DevIdentityProvider(keys);
    const xml = Buffer.from(
      provider.respond({ id: '_request-1', assertionConsumerServiceUrl: 'http://localhost/console-admin/v1/saml2/acs', issuer: 'gridport' }, 'ops@example.com'),
      'base64',
    ).toString('utf8');
    const document = new DOMParser().parseFromString(xml, 'text/xml');
    const signature = document.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0];
    expect(signature?.parentNode?.localName).toBe('Assertion');
    expect(xml).toContain('InResponseTo="_request-1"');
    expect(xml).toContain('<saml:Audience>gridport</saml:Audience>');
    expect(xml).toContain('>ops@example.com</saml:NameID>');

    const verifier = new SignedXml({ publicCert: keys.certificate });
    verifier.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
    expect(verifier.checkSignature(xml)).toBe(true);
    expect(verifier.signatureAlgorithm).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(verifier.canonicalizationAlgorithm).toBe('http://www.w3.org/2001/10/xml-exc-c14n#');
  });

  it('reads the id, ACS URL and issuer of a redirect-bound AuthnRequest and refuses anything else', () => {
    const request = authnRequest(
      '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_abc" AssertionConsumerServiceURL="http://localhost/acs"><saml:Issuer>gridport</saml:Issuer></samlp:AuthnRequest>',
    );
    expect(readAuthnRequest(request)).toEqual({ id: '_abc', assertionConsumerServiceUrl: 'http://localhost/acs', issuer: 'gridport' });
    for (const bad of [
      'bm90LWRlZmxhdGVk',
      authnRequest('<Other/>'),
      authnRequest('<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_abc"/>'),
    ]) {
      expect(() => readAuthnRequest(bad)).toThrow(GridportError);
      try {
        readAuthnRequest(bad);
      } catch (error) {
        expect((error as GridportError).key).toBe('saml2_request_validation_failed');
      }
    }
  });
});
