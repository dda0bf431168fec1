import { randomUUID, webcrypto } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { GridportError } from '../../../contracts/errors';

/** The entity id the development identity provider signs as. */
export const devIdentityProviderIssuer = 'gridport-dev-idp';

/** A signing key and its self-signed certificate, both PEM. */
export interface SigningKeyPair {
  privateKey: string;
  certificate: string;
}

type SelfSignedParams = Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>;

const rsa = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN ${label}-----\n${base64.trimEnd()}\n-----END ${label}-----\n`;
}

/** A new RSA key pair with a self-signed certificate valid for ten years. */
export async function generateSigningKeyPair(commonName = 'Gridport development identity provider'): Promise<SigningKeyPair> {
  const keys = (await webcrypto.subtle.generateKey(rsa, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomUUID().replace(/-/g, '').slice(0, 16),
      name: `CN=${commonName}`,
      notBefore,
      notAfter: new Date(notBefore.getTime() + 10 * 365 * 24 * 3600 * 1000),
      signingAlgorithm: rsa,
      keys: keys as SelfSignedParams[0]['keys'],
    },
    webcrypto as unknown as SelfSignedParams[1],
  );
  return {
    privateKey: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certificate: certificate.toString('pem'),
  };
}

/** The key pair kept in `file`, made on first start; in memory only when `file` is null. */
export async function loadOrCreateSigningKeyPair(file: string | null): Promise<SigningKeyPair> {
  if (file !== null && existsSync(file)) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as SigningKeyPair;
    } catch (error) {
      throw new Error(`${file} is not readable JSON (${(error as Error).message}); remove it to make a new development identity provider key`);
    }
  }
  const pair = await generateSigningKeyPair();
  if (file !== null) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(pair, null, 2)}\n`, { mode: 0o600 });
  }
  return pair;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface AssertionInput {
  issuer: string;
  email: string;
  audience: string;
  destination: string;
  inResponseTo: string | null;
  /** When the assertion was issued; validity runs five minutes from then. */
  issuedAt?: Date;
}

/** An unsigned SAML 2.0 Response carrying one Assertion about `email`. */
export function samlResponseXml(input: AssertionInput): string {
  const issued = input.issuedAt ?? new Date();
  const instant = issued.toISOString();
  const notOnOrAfter = new Date(issued.getTime() + 5 * 60_000).toISOString();
  const notBefore = new Date(issued.getTime() - 60_000).toISOString();
  const inResponseTo = input.inResponseTo === null ? '' : ` InResponseTo="${escapeXml(input.inResponseTo)}"`;
  const issuer = `<saml:Issuer>${escapeXml(input.issuer)}</saml:Issuer>`;
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="_${randomUUID()}" Version="2.0" IssueInstant="${instant}" Destination="${escapeXml(input.destination)}"${inResponseTo}>` +
    issuer +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="_${randomUUID()}" Version="2.0" IssueInstant="${instant}">` +
    issuer +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escapeXml(input.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(input.destination)}"${inResponseTo}/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(input.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="_${randomUUID()}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement></saml:Assertion></samlp:Response>`
  );
}

/**
 * Signs the Assertion of a Response: an enveloped RSA-SHA256 signature over exclusive
 * canonical XML, placed after the Assertion's Issuer as the schema wants it.
 */
export function signAssertion(xml: string, keys: SigningKeyPair): string {
  const signature = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signature.computeSignature(xml, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return signature.getSignedXml();
}

/** What the development identity provider reads from an AuthnRequest (HTTP-Redirect binding). */
export interface AuthnRequestSummary {
  id: string;
  assertionConsumerServiceUrl: string;
  issuer: string;
}

/** Inflates and parses a redirect-bound AuthnRequest; anything malformed is saml2_request_validation_failed. */
export function readAuthnRequest(samlRequest: string): AuthnRequestSummary {
  let root: Element | null;
  try {
    const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
    root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  } catch (error) {
    throw new GridportError('saml2_request_validation_failed', { reason: (error as Error).message });
  }
  if (!root || root.localName !== 'AuthnRequest') {
    throw new GridportError('saml2_request_validation_failed', { reason: 'not an AuthnRequest' });
  }
  const issuer = root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0]?.textContent ?? '';
  const id = root.getAttribute('ID') ?? '';
  const assertionConsumerServiceUrl = root.getAttribute('AssertionConsumerServiceURL') ?? '';
  if (!id || !assertionConsumerServiceUrl || !issuer) {
    throw new GridportError('saml2_request_validation_failed', { reason: 'the AuthnRequest lacks an ID, an AssertionConsumerServiceURL or an Issuer' });
  }
  return { id, assertionConsumerServiceUrl, issuer };
}

/**
 * The built-in development identity provider (spec README, "Sessions"): used when no identity
 * provider is configured, it signs real SAML responses with its own key, and Gridport checks
 * them with its certificate exactly as it checks an outside provider's.
 */
export class DevIdentityProvider {
  constructor(private readonly keys: SigningKeyPair) {}

  get certificate(): string {
    return this.keys.certificate;
  }

  /** A signed, base64-encoded SAMLResponse answering `request` for `email`. */
  respond(request: AuthnRequestSummary, email: string): string {
    const xml = samlResponseXml({
      issuer: devIdentityProviderIssuer,
      email,
      audience: request.issuer,
      destination: request.assertionConsumerServiceUrl,
      inResponseTo: request.id,
    });
    return Buffer.from(signAssertion(xml, this.keys), 'utf8').toString('base64');
  }
}
