import { createHash, KeyObject, verify as verifySignature, webcrypto, X509Certificate as NativeCertificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { GridportError } from '../../../contracts/errors';
import { deviceIdentifierPattern, deviceSubjectOrganization } from '../../../contracts/provisioning';
import { certificateDer, readCertificateFields } from './certificate-der';

/** WebCrypto as @peculiar/x509 types it: Node's implementation, passed to every call. */
type X509Crypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.create>[1]>;
const x509Crypto = webcrypto as unknown as X509Crypto;

export type CryptoKey = webcrypto.CryptoKey;

/** Every key here is ECDSA on P-256, signed with SHA-256 (the gateway protocol's challenge uses the same). */
export const ecdsaP256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
export const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

export const caSubject = 'CN=Gridport device CA, O=Gridport';
const caValidityYears = 20;
const deviceValidityYears = 10;

function yearsAfter(date: Date, years: number): Date {
  const after = new Date(date.getTime());
  after.setUTCFullYear(after.getUTCFullYear() + years);
  return after;
}

/** A random positive 128-bit serial, hex (RFC 5280 4.1.2.2: positive, at most 20 bytes). */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x40;
  return Buffer.from(bytes).toString('hex');
}

/** SHA-256 of a certificate's DER, hex: what a device's current certificate is recorded by. */
export function certificateFingerprint(certificate: x509.X509Certificate): string {
  return createHash('sha256').update(Buffer.from(certificate.rawData)).digest('hex');
}

/** A certificate from PEM, or null when it does not parse. */
export function parseCertificate(pem: string): x509.X509Certificate | null {
  try {
    return new x509.X509Certificate(pem);
  } catch {
    return null;
  }
}

/**
 * What the hub reads of a device certificate: its subject's one OU and O, its fingerprint, its
 * validity and its key. Read from the DER by certificate-der.ts: a reconnect storm reads
 * thousands, and both @peculiar/x509's JavaScript ASN.1 and OpenSSL 3's parse (Node's
 * X509Certificate) cost several times more per certificate. Nothing here says who signed it
 * (CertificateAuthority.signed does).
 */
export interface DeviceCertificateFacts {
  /** The OU, when the subject has exactly one and it is a device identifier. */
  identifier: string | null;
  /** The O, when the subject has exactly one. */
  organization: string | null;
  fingerprint: string;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  /** The certificate's bytes. */
  der: Buffer;
}

/** The facts of a device certificate from PEM, or null when it is not read (certificate-der.ts: only ECDSA P-256 keys). */
export function readDeviceCertificate(pem: string): DeviceCertificateFacts | null {
  const der = certificateDer(pem);
  const fields = der && readCertificateFields(der);
  if (!der || !fields) {
    return null;
  }
  const unit = fields.organizationalUnits.length === 1 ? fields.organizationalUnits[0] : null;
  const organization = fields.organizations.length === 1 ? fields.organizations[0] : null;
  return {
    identifier: typeof unit === 'string' && deviceIdentifierPattern.test(unit) ? unit : null,
    organization: organization ?? null,
    fingerprint: createHash('sha256').update(der).digest('hex'),
    notBefore: fields.notBefore,
    notAfter: fields.notAfter,
    publicKey: fields.publicKey,
    der,
  };
}

export interface CertificateRequest {
  /** The device identifier the CSR asks for (its OU). */
  identifier: string;
  publicKey: x509.PublicKey;
}

function payloadInvalid(message: string): GridportError {
  return new GridportError('payload_invalid', [{ path: 'csr', message }]);
}

/**
 * Reads a PKCS#10 CSR and applies the rules of api.md section 5: a CSR that does not parse,
 * whose self-signature does not verify, or whose key is not ECDSA P-256 is payload_invalid;
 * O must be exactly "device" (invalid_csr_subject_o); OU must be one identifier of 1-100
 * lowercase letters, digits and hyphens (csr_subject_ou_invalid).
 */
export async function readCertificateRequest(pem: string): Promise<CertificateRequest> {
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(pem);
  } catch {
    throw payloadInvalid('csr must be a PEM-encoded PKCS#10 certificate request');
  }
  let verified = false;
  try {
    verified = await csr.verify(x509Crypto);
  } catch {
    verified = false;
  }
  if (!verified) {
    throw payloadInvalid('the signature of the certificate request does not verify with its public key');
  }
  try {
    await csr.publicKey.export(ecdsaP256, ['verify'], x509Crypto);
  } catch {
    throw payloadInvalid('the key of the certificate request must be an ECDSA P-256 key');
  }
  const organizations = csr.subjectName.getField('O');
  if (organizations.length !== 1 || organizations[0] !== deviceSubjectOrganization) {
    throw new GridportError('invalid_csr_subject_o', { organization: organizations });
  }
  const units = csr.subjectName.getField('OU');
  const identifier = units[0];
  if (units.length !== 1 || identifier === undefined || !deviceIdentifierPattern.test(identifier)) {
    throw new GridportError('csr_subject_ou_invalid', { organizationalUnit: units, pattern: deviceIdentifierPattern.source });
  }
  return { identifier, publicKey: csr.publicKey };
}

/** A new CA: its key pair and self-signed certificate, as PEM (the private key PKCS#8). */
export async function generateAuthority(now = new Date()): Promise<{ certificatePem: string; privateKeyPem: string }> {
  const keys = (await webcrypto.subtle.generateKey(ecdsaP256, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomSerial(),
      name: caSubject,
      notBefore: now,
      notAfter: yearsAfter(now, caValidityYears),
      signingAlgorithm: ecdsaSha256,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, x509Crypto),
      ],
    },
    x509Crypto,
  );
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certificatePem: certificate.toString('pem'), privateKeyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

export interface IssuedCertificate {
  certificate: x509.X509Certificate;
  pem: string;
  fingerprint: string;
  serial: string;
  notAfter: Date;
}

export interface IssueOptions {
  identifier: string;
  publicKey: x509.PublicKeyType;
  /** Validity; from now for 10 years unless given (tests make expired ones). */
  notBefore?: Date;
  notAfter?: Date;
}

/** The platform CA in memory: its certificate and its (non-extractable) signing key. */
export class CertificateAuthority {
  /** The CA's certificate as OpenSSL reads it: the issuer name and key device certificates are checked against. */
  private readonly native: NativeCertificate;

  private constructor(
    readonly certificate: x509.X509Certificate,
    readonly certificatePem: string,
    private readonly privateKey: CryptoKey,
  ) {
    this.native = new NativeCertificate(certificatePem);
  }

  static async load(certificatePem: string, privateKeyPem: string): Promise<CertificateAuthority> {
    const certificate = new x509.X509Certificate(certificatePem);
    const privateKey = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(privateKeyPem), ecdsaP256, false, ['sign']);
    return new CertificateAuthority(certificate, certificate.toString('pem'), privateKey);
  }

  /** A device certificate: CN and OU the identifier, O=device, client authentication only. */
  async issue({
    identifier,
    publicKey,
    notBefore = new Date(),
    notAfter = yearsAfter(notBefore, deviceValidityYears),
  }: IssueOptions): Promise<IssuedCertificate> {
    const certificate = await x509.X509CertificateGenerator.create(
      {
        serialNumber: randomSerial(),
        subject: [{ CN: [identifier] }, { OU: [identifier] }, { O: [deviceSubjectOrganization] }],
        issuer: this.certificate.subjectName,
        notBefore,
        notAfter,
        signingAlgorithm: ecdsaSha256,
        publicKey,
        signingKey: this.privateKey,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth], false),
          await x509.SubjectKeyIdentifierExtension.create(publicKey, false, x509Crypto),
          await x509.AuthorityKeyIdentifierExtension.create(this.certificate, false, x509Crypto),
        ],
      },
      x509Crypto,
    );
    return {
      certificate,
      pem: certificate.toString('pem'),
      fingerprint: certificateFingerprint(certificate),
      serial: certificate.serialNumber,
      notAfter: certificate.notAfter,
    };
  }

  /**
   * Whether `certificate` is a device certificate of this CA valid at `at`: issued by it (name
   * and signature), within its validity, and for client authentication with O=device.
   */
  vouchesFor(certificate: DeviceCertificateFacts, at = new Date()): boolean {
    if (at.getTime() < certificate.notBefore.getTime() || at.getTime() > certificate.notAfter.getTime()) {
      return false;
    }
    return this.signed(certificate);
  }

  /**
   * Whether this CA issued `certificate` as a device certificate (name, signature, O=device),
   * whatever the date: a fact of the certificate's bytes; its validity at a given time is
   * checked apart (vouchesFor).
   */
  signed(certificate: DeviceCertificateFacts): boolean {
    if (certificate.organization !== deviceSubjectOrganization) {
      return false;
    }
    try {
      const native = new NativeCertificate(certificate.der);
      return native.checkIssued(this.native) && native.verify(this.native.publicKey);
    } catch {
      return false;
    }
  }
}

/**
 * Whether `signature` is the holder's signature of `data` (ECDSA P-256 with SHA-256, IEEE P1363
 * r||s as WebCrypto and the edge's `signChallenge` make it). OpenSSL at once, on this thread:
 * cheaper than WebCrypto's round trip through the thread pool at a handshake's size.
 */
export function verifyDeviceSignature(publicKey: KeyObject | CryptoKey, data: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = publicKey instanceof KeyObject ? publicKey : KeyObject.from(publicKey);
    return verifySignature('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

/** Whether `signatureBase64` is the holder's signature of the nonce (the hub's challenge, answered by edge `signChallenge`). */
export async function verifyChallenge(publicKey: KeyObject | CryptoKey, nonceBase64: string, signatureBase64: string): Promise<boolean> {
  return Promise.resolve(verifyDeviceSignature(publicKey, Buffer.from(nonceBase64, 'base64'), Buffer.from(signatureBase64, 'base64')));
}
