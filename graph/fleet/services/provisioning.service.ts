import { createHash } from 'node:crypto';
import { secretHash } from '../../common/secret-hash';
import type { Knex } from 'knex';
import { anonymousActor, type Actor } from '../../common/context';
import { GridportError } from '../../../contracts/errors';
import { deviceSubjectOrganization, type ProvisionCertificateBody, type ProvisionCertificateResponse } from '../../../contracts/provisioning';
import type { EncryptedSecret, SecretBox } from '../../common/secret-box';
import { write } from '../../common/write';
import type { KeyObject } from 'node:crypto';
import { CertificateAuthority, generateAuthority, readCertificateRequest, readDeviceCertificate } from './certificate-authority';

/** The one row of certificate_authorities. */
const authorityRowId = 1;

/** Who provisioning acts as in the audit log: the device itself, proved only by its token. */
const provisioningActor: Actor = { ...anonymousActor, name: 'device provisioning' };

/** A gateway the hub may let in: whom its certificate names, and the key to check its challenge with (verifyDeviceSignature). */
export interface VerifiedDevice {
  identifier: string;
  deviceId: number;
  publicKey: KeyObject;
}

/** A device certificate as far as its bytes tell: who it names (O=device, one OU), its fingerprint, its validity and its key. */
export interface ReadCertificate {
  identifier: string;
  fingerprint: string;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
}

/** Certificates of known devices remembered at most: a node's gateways with room to spare (about 1 KB each). */
const certificateCacheMax = 50_000;
/**
 * Certificates read but not yet found on a device's row, remembered at most: enough for the
 * handshakes in flight of a storm (the hub reads a certificate, checks its signature, then looks
 * the device up), few enough that certificates nobody issued, which anyone can send before
 * proving anything, cannot fill the memory or push the known ones out.
 */
const unknownCertificateCacheMax = 2_000;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * Device certificates (spec README "Certificates", api.md sections 5-8): the platform CA, kept
 * in the database so that every node signs with the same one, the one-time exchange of a
 * shipped device's token and CSR for a certificate, and the check the hub makes of it.
 */
export class ProvisioningService {
  private loading: Promise<CertificateAuthority> | null = null;
  /** Certificates a device's row holds, by the SHA-256 of their PEM, least recently used first. */
  private readonly read = new Map<string, ReadCertificate>();
  /** Certificates read and not (yet) found on a device's row, by the same key, oldest first. */
  private readonly unknown = new Map<string, ReadCertificate>();

  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  /**
   * The platform CA, created on first use. Nodes starting together each insert a candidate with
   * `on conflict do nothing` and then all read the row that won, so there is only ever one.
   */
  authority(): Promise<CertificateAuthority> {
    if (!this.loading) {
      this.loading = this.loadAuthority().catch((error: unknown) => {
        this.loading = null;
        throw error;
      });
    }
    return this.loading;
  }

  private async loadAuthority(): Promise<CertificateAuthority> {
    const existing = await this.readAuthority();
    if (existing) {
      return existing;
    }
    const created = await generateAuthority();
    await this.db('certificate_authorities')
      .insert({ id: authorityRowId, certificate: created.certificatePem, private_key: JSON.stringify(this.box.seal(created.privateKeyPem)) })
      .onConflict('id')
      .ignore();
    const stored = await this.readAuthority();
    if (!stored) {
      throw new GridportError('internal_server_error', { reason: 'the certificate authority row is missing right after it was inserted' });
    }
    return stored;
  }

  private async readAuthority(): Promise<CertificateAuthority | null> {
    const row = (await this.db('certificate_authorities').where({ id: authorityRowId }).first()) as
      { certificate: string; private_key: EncryptedSecret | string } | undefined;
    if (!row) {
      return null;
    }
    const sealed = typeof row.private_key === 'string' ? (JSON.parse(row.private_key) as EncryptedSecret) : row.private_key;
    return CertificateAuthority.load(row.certificate, this.box.open(sealed));
  }

  /** The CA certificate, PEM: what gateways pin. */
  async caCertificatePem(): Promise<string> {
    return (await this.authority()).certificatePem;
  }

  /**
   * POST /v1/device/provision/cert. The CSR is checked first (payload_invalid,
   * invalid_csr_subject_o, csr_subject_ou_invalid); then, in one transaction, the token is spent
   * by an update that only matches while it is unspent: of requests racing with one token, the
   * first takes the row lock and the others find no row once it commits (401 unauthorized). An
   * identifier held by another device rolls everything back (csr_subject_ou_already_exists),
   * leaving the token unspent.
   */
  async provision(body: ProvisionCertificateBody): Promise<ProvisionCertificateResponse> {
    const request = await readCertificateRequest(body.csr);
    const authority = await this.authority();
    const tokenHash = secretHash(body.token);
    return write(this.db, provisioningActor, async (w) => {
      const claimed = (await w
        .trx('devices')
        .where({ provisioning_token_hash: tokenHash, open_for_provisioning: true })
        .update({ open_for_provisioning: false, provisioning_token_hash: null, updated_at: w.trx.fn.now() })
        .returning(['id', 'organization_id', 'identifier'])) as { id: number | string; organization_id: number | string | null; identifier: string | null }[];
      const device = claimed[0];
      if (!device) {
        throw new GridportError('unauthorized', { reason: 'the provisioning token is unknown or already used' });
      }
      const deviceId = Number(device.id);
      const holder = await w.trx('devices').where({ identifier: request.identifier }).whereNot({ id: deviceId }).first('id');
      if (holder) {
        throw new GridportError('csr_subject_ou_already_exists', { organizationalUnit: request.identifier });
      }
      const issued = await authority.issue({ identifier: request.identifier, publicKey: request.publicKey });
      try {
        await w.trx('devices').where({ id: deviceId }).update({
          identifier: request.identifier,
          certificate_fingerprint: issued.fingerprint,
          certificate_serial: issued.serial,
          certificate_not_after: issued.notAfter,
        });
      } catch (error) {
        // Another device took the identifier between the check and this update.
        if (isUniqueViolation(error)) {
          throw new GridportError('csr_subject_ou_already_exists', { organizationalUnit: request.identifier });
        }
        throw error;
      }
      await w.audit({
        objectType: 'devices',
        objectId: deviceId,
        organizationId: device.organization_id === null ? null : Number(device.organization_id),
        changeType: 'controllerUpdate',
        diff: [
          { type: 'string', name: 'identifier', oldValue: device.identifier, newValue: request.identifier },
          { type: 'boolean', name: 'openForProvisioning', oldValue: true, newValue: false },
          { type: 'hidden', name: 'provisioningTokenHash' },
          { type: 'string', name: 'certificateSerial', oldValue: null, newValue: issued.serial },
          { type: 'date', name: 'certificateNotAfter', oldValue: null, newValue: issued.notAfter.toISOString() },
        ],
      });
      return { cert: issued.pem, caCertificate: authority.certificatePem };
    });
  }

  /**
   * The device a certificate proves, or null: it must be the certificate last issued to a
   * device (its SHA-256 fingerprint is the one recorded on the device's row, under the
   * identifier it names), be within its validity at `at`, and name O=device, so a
   * re-provisioned device's older certificate no longer works.
   *
   * The CA's signature is not checked here: provisioning records a fingerprint only for the
   * certificate the CA has just signed for that device, in the same transaction, so a
   * fingerprint found on the device's row proves the certificate was issued (SHA-256 second
   * preimages are out of reach), and a certificate whose fingerprint no row holds is refused
   * whatever its signature (the full CA check could only refuse it too). Decided with the
   * security review of issue 21; docs/gateway-protocol.md ("Which certificate is accepted") gives the reasoning and
   * what it rests on (the devices table is as trusted as the CA's key, which sits beside it).
   */
  async verifyDeviceCertificate(pem: string, at = new Date()): Promise<VerifiedDevice | null> {
    const [device] = await this.verifyDeviceCertificates([pem], at);
    return device ?? null;
  }

  /**
   * verifyDeviceCertificate of several certificates at once (the handshakes of a reconnect
   * storm): one query looks the devices up by fingerprint. What a certificate's bytes say is
   * remembered per certificate (parsing it again would read the same), up to
   * certificateCacheMax certificates; the validity at `at` and the device that holds the
   * fingerprint are checked every time. Answers one entry per certificate, in order.
   */
  async verifyDeviceCertificates(pems: readonly string[], at = new Date()): Promise<(VerifiedDevice | null)[]> {
    const read = pems.map((pem) => this.readCertificate(pem));
    const valid = read.map((certificate) =>
      certificate && at.getTime() >= certificate.notBefore.getTime() && at.getTime() <= certificate.notAfter.getTime() ? certificate : null,
    );
    const fingerprints = [...new Set(valid.flatMap((certificate) => (certificate ? [certificate.fingerprint] : [])))];
    if (fingerprints.length === 0) {
      return valid.map(() => null);
    }
    const rows = (await this.db('devices').whereIn('certificate_fingerprint', fingerprints).select('id', 'identifier', 'certificate_fingerprint')) as {
      id: number | string;
      identifier: string | null;
      certificate_fingerprint: string;
    }[];
    const byFingerprint = new Map(rows.map((row) => [row.certificate_fingerprint, row]));
    return valid.map((certificate, index) => {
      const row = certificate ? byFingerprint.get(certificate.fingerprint) : undefined;
      if (!certificate || !row || row.identifier !== certificate.identifier) {
        return null;
      }
      this.remember(pems[index] ?? '', certificate);
      return { identifier: certificate.identifier, deviceId: Number(row.id), publicKey: certificate.publicKey };
    });
  }

  /**
   * What a device certificate's bytes say, remembered by the PEM's hash (a known device's for
   * good, up to certificateCacheMax; any other among the last unknownCertificateCacheMax read);
   * null when it is not one (no parse, no one OU identifier, O not device).
   */
  readCertificate(pem: string): ReadCertificate | null {
    const key = pemKey(pem);
    const known = this.read.get(key);
    if (known) {
      // Most recently used last: the first entry is the one to forget.
      this.read.delete(key);
      this.read.set(key, known);
      return known;
    }
    const recent = this.unknown.get(key);
    if (recent) {
      return recent;
    }
    const facts = readDeviceCertificate(pem);
    if (!facts || facts.identifier === null || facts.organization !== deviceSubjectOrganization) {
      return null;
    }
    const certificate: ReadCertificate = {
      identifier: facts.identifier,
      fingerprint: facts.fingerprint,
      notBefore: facts.notBefore,
      notAfter: facts.notAfter,
      publicKey: facts.publicKey,
    };
    forgetOldest(this.unknown.set(key, certificate), unknownCertificateCacheMax);
    return certificate;
  }

  /** Keeps a certificate a device's row holds among the known ones. */
  private remember(pem: string, certificate: ReadCertificate): void {
    const key = pemKey(pem);
    this.unknown.delete(key);
    this.read.delete(key);
    forgetOldest(this.read.set(key, certificate), certificateCacheMax);
  }
}

function pemKey(pem: string): string {
  return createHash('sha256').update(pem).digest('base64');
}

/** Drops the first (oldest or least recently used) entries of a map beyond `max`. */
function forgetOldest<V>(map: Map<string, V>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) {
      return;
    }
    map.delete(oldest.value);
  }
}
