import { webcrypto } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import { GridportError, isErrorKey } from '../../contracts/errors';
import {
  deviceIdentifierPattern,
  deviceSubjectOrganization,
  provisionCertificatePath,
  provisionCertificateResponseSchema,
  type ProvisionCertificateResponse,
} from '../../contracts/provisioning';

/**
 * The gateway side of provisioning (api.md section 7): make a key pair, ask the platform for a
 * certificate with the one-time token, and keep the identity on disk. Imports only contracts/
 * so it ships to gateways alone.
 */

type X509Crypto = NonNullable<Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[1]>;
const x509Crypto = webcrypto as unknown as X509Crypto;
const ecdsaP256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** The files of an identity in its directory. */
export const identityFiles = { privateKey: 'key.pem', certificate: 'cert.pem', ca: 'ca.pem' } as const;

export interface ProvisionOptions {
  /** The platform's base URL, e.g. https://gridport.example.com (no trailing path). */
  baseUrl: string;
  /** The one-time provisioning token `gridport device ship` printed. */
  token: string;
  /** The device identifier asked for: the CSR's OU, lowercase letters, digits and hyphens. */
  identifier: string;
  /** Where key.pem (0600), cert.pem and ca.pem are written; created if missing. */
  directory: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
}

/** A provisioned gateway: its certificate, the CA it pins, and its private key. */
export interface GatewayIdentity {
  certificatePem: string;
  caPem: string;
  privateKey: webcrypto.CryptoKey;
  /** The same key, PKCS#8 PEM, for mutual TLS (a TLS client takes its key as PEM). */
  privateKeyPem: string;
}

/** Writes a file whole or not at all: a power cut leaves the old file or the new one. */
async function writeAtomically(file: string, contents: string, mode: number): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents, { mode });
  await chmod(temporary, mode);
  await rename(temporary, file);
}

/** The error an answer other than 201 stands for: the server's catalogue key where it gives one. */
async function answerError(response: Response): Promise<GridportError> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const key = (body as { key?: unknown } | null)?.key;
  if (isErrorKey(key)) {
    return new GridportError(key, (body as { details?: unknown }).details);
  }
  return new GridportError('service_unavailable', { status: response.status, body: text.slice(0, 200) });
}

/**
 * Provisions this gateway: a new extractable ECDSA P-256 key pair, a CSR with O=device and
 * OU=identifier, POSTed with the token. The answer is checked (the certificate is for our key
 * and signed by the CA that came with it) before key.pem (PKCS#8, mode 0600), ca.pem and then
 * cert.pem are written. Refusals throw GridportError with the server's key (unauthorized for a
 * used token, csr_subject_ou_already_exists, ...).
 */
export async function provision({ baseUrl, token, identifier, directory, fetch: fetchImpl = fetch }: ProvisionOptions): Promise<GatewayIdentity> {
  if (!deviceIdentifierPattern.test(identifier)) {
    throw new GridportError('csr_subject_ou_invalid', { organizationalUnit: [identifier], pattern: deviceIdentifierPattern.source });
  }
  const keys = (await webcrypto.subtle.generateKey(ecdsaP256, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create(
    {
      name: [{ CN: [identifier] }, { OU: [identifier] }, { O: [deviceSubjectOrganization] }],
      keys,
      signingAlgorithm: ecdsaSha256,
    },
    x509Crypto,
  );

  const response = await fetchImpl(new URL(provisionCertificatePath, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ csr: csr.toString('pem'), token }),
  });
  if (response.status !== 201) {
    throw await answerError(response);
  }
  let answer: ProvisionCertificateResponse;
  try {
    answer = provisionCertificateResponseSchema.validateSync(await response.json());
  } catch (error) {
    throw new GridportError('service_unavailable', { reason: `the provisioning answer is not understood: ${(error as Error).message}` });
  }

  const certificate = new x509.X509Certificate(answer.cert);
  const ca = new x509.X509Certificate(answer.caCertificate);
  const ours = Buffer.from(await webcrypto.subtle.exportKey('spki', keys.publicKey));
  if (!ours.equals(Buffer.from(certificate.publicKey.rawData)) || !(await certificate.verify({ publicKey: ca.publicKey, signatureOnly: true }, x509Crypto))) {
    throw new GridportError('service_unavailable', { reason: 'the issued certificate is not for this key or not signed by the CA sent with it' });
  }

  await mkdir(directory, { recursive: true, mode: 0o700 });
  const privateKeyPem = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  await writeAtomically(path.join(directory, identityFiles.privateKey), privateKeyPem, 0o600);
  await writeAtomically(path.join(directory, identityFiles.ca), answer.caCertificate, 0o644);
  await writeAtomically(path.join(directory, identityFiles.certificate), answer.cert, 0o644);
  return { certificatePem: answer.cert, caPem: answer.caCertificate, privateKey: keys.privateKey, privateKeyPem };
}

/** The identity `provision` stored in `directory`; the key comes back for signing only. */
export async function loadIdentity(directory: string): Promise<GatewayIdentity> {
  const [keyPem, certificatePem, caPem] = await Promise.all(
    [identityFiles.privateKey, identityFiles.certificate, identityFiles.ca].map((name) => readFile(path.join(directory, name), 'utf8')),
  );
  if (keyPem === undefined || certificatePem === undefined || caPem === undefined) {
    throw new GridportError('not_found', { directory });
  }
  const privateKey = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(keyPem), ecdsaP256, false, ['sign']);
  return { certificatePem, caPem, privateKey, privateKeyPem: keyPem };
}

/** Answers the hub's challenge: the nonce's bytes signed with ECDSA P-256 and SHA-256, raw r||s, base64. */
export async function signChallenge(privateKey: webcrypto.CryptoKey, nonceBase64: string): Promise<string> {
  const signature = await webcrypto.subtle.sign(ecdsaSha256, privateKey, Buffer.from(nonceBase64, 'base64'));
  return Buffer.from(signature).toString('base64');
}
