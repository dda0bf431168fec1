/**
 * Reads what the hub needs of a device certificate straight from its DER: the subject's O and
 * OU values, the validity, and the ECDSA P-256 public key. OpenSSL 3's parse of a certificate
 * (Node's X509Certificate) costs 160 to 300 µs on the machines here, most of it decoding the key
 * through its provider framework; a reconnect storm reads a certificate per gateway. This
 * reader walks the few fields by their fixed places in RFC 5280's TBSCertificate and builds
 * the key from its point (JWK import: about 90 µs, the curve check included).
 *
 * It is strict and bounded: definite DER lengths within their parent, the fields in RFC 5280's
 * order, times in their DER form (UTCTime YYMMDDHHMMSSZ, GeneralizedTime YYYYMMDDHHMMSSZ),
 * a key only of id-ecPublicKey on prime256v1, uncompressed. Anything else reads as null. What it
 * reads proves nothing alone: a device is known by the SHA-256 fingerprint of these exact bytes
 * recorded on its row, so the bytes of a certificate that passes are those the CA issued.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';

export interface CertificateFields {
  /** The values of the subject's O attributes, in order; null for a value in a string type not read here. */
  organizations: (string | null)[];
  /** The values of the subject's OU attributes, likewise. */
  organizationalUnits: (string | null)[];
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
}

const tags = { integer: 0x02, bitString: 0x03, oid: 0x06, sequence: 0x30, set: 0x31, version: 0xa0, utcTime: 0x17, generalizedTime: 0x18 } as const;
/** String types read as text: UTF8String, PrintableString, IA5String. */
const textTags = new Set([0x0c, 0x13, 0x16]);
const oidOrganization = Buffer.from([0x55, 0x04, 0x0a]);
const oidOrganizationalUnit = Buffer.from([0x55, 0x04, 0x0b]);
/** AlgorithmIdentifier { id-ecPublicKey, prime256v1 }, whole. */
const p256Algorithm = Buffer.from('301306072a8648ce3d020106082a8648ce3d030107', 'hex');

interface Element {
  tag: number;
  /** Where the content starts and ends (exclusive). */
  start: number;
  end: number;
}

/** The DER element at `offset`, which must end by `limit`; null when it does not. */
function element(bytes: Buffer, offset: number, limit: number): Element | null {
  if (offset + 2 > limit) {
    return null;
  }
  const tag = bytes[offset] ?? 0;
  let length = bytes[offset + 1] ?? 0;
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3 || start + count > limit) {
      return null;
    }
    length = 0;
    for (let index = 0; index < count; index += 1) {
      length = length * 256 + (bytes[start + index] ?? 0);
    }
    start += count;
    // DER: the shortest form of the length.
    if (length < 0x80 || (count > 1 && bytes[offset + 2] === 0)) {
      return null;
    }
  }
  const end = start + length;
  return end <= limit ? { tag, start, end } : null;
}

/** The element at `offset` with the tag `tag`, or null. */
function elementOf(bytes: Buffer, offset: number, limit: number, tag: number): Element | null {
  const found = element(bytes, offset, limit);
  return found && found.tag === tag ? found : null;
}

function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let index = from; index < from + count; index += 1) {
    const code = text.charCodeAt(index) - 48;
    if (code < 0 || code > 9) {
      return Number.NaN;
    }
    value = value * 10 + code;
  }
  return value;
}

/** A UTCTime or GeneralizedTime in RFC 5280's form (UTC, seconds, no fraction), or null. */
function time(bytes: Buffer, found: Element): Date | null {
  const text = bytes.toString('latin1', found.start, found.end);
  let year: number;
  let rest: number;
  if (found.tag === tags.utcTime && text.length === 13) {
    const short = digits(text, 0, 2);
    year = short >= 50 ? 1900 + short : 2000 + short;
    rest = 2;
  } else if (found.tag === tags.generalizedTime && text.length === 15) {
    year = digits(text, 0, 4);
    rest = 4;
  } else {
    return null;
  }
  if (text[text.length - 1] !== 'Z') {
    return null;
  }
  const [month, day, hour, minute, second] = [0, 2, 4, 6, 8].map((at) => digits(text, rest + at, 2)) as [number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC carries an out-of-range field over (month 13, day 32): such a time is not one.
  const same =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return same ? date : null;
}

/** The O and OU values of a Name (a SEQUENCE of SETs of { type, value }), or null when it is malformed. */
function names(bytes: Buffer, name: Element): Pick<CertificateFields, 'organizations' | 'organizationalUnits'> | null {
  const organizations: (string | null)[] = [];
  const organizationalUnits: (string | null)[] = [];
  for (let at = name.start; at < name.end;) {
    const set = elementOf(bytes, at, name.end, tags.set);
    if (!set) {
      return null;
    }
    for (let inner = set.start; inner < set.end;) {
      const attribute = elementOf(bytes, inner, set.end, tags.sequence);
      const type = attribute && elementOf(bytes, attribute.start, attribute.end, tags.oid);
      const value = type && element(bytes, type.end, attribute.end);
      if (!attribute || !type || !value || value.end !== attribute.end) {
        return null;
      }
      const oid = bytes.subarray(type.start, type.end);
      const list = oid.equals(oidOrganization) ? organizations : oid.equals(oidOrganizationalUnit) ? organizationalUnits : null;
      list?.push(textTags.has(value.tag) ? bytes.toString('utf8', value.start, value.end) : null);
      inner = attribute.end;
    }
    at = set.end;
  }
  return { organizations, organizationalUnits };
}

/** The public key of a SubjectPublicKeyInfo, when it is an uncompressed ECDSA P-256 point on the curve. */
function p256Key(bytes: Buffer, info: Element): KeyObject | null {
  const algorithm = elementOf(bytes, info.start, info.end, tags.sequence);
  if (!algorithm || !bytes.subarray(info.start, algorithm.end).equals(p256Algorithm)) {
    return null;
  }
  const key = elementOf(bytes, algorithm.end, info.end, tags.bitString);
  // No unused bits, then 0x04 and the two 32-byte coordinates.
  if (!key || key.end !== info.end || key.end - key.start !== 66 || bytes[key.start] !== 0 || bytes[key.start + 1] !== 4) {
    return null;
  }
  const x = bytes.toString('base64url', key.start + 2, key.start + 34);
  const y = bytes.toString('base64url', key.start + 34, key.end);
  try {
    // The import refuses a point that is not on the curve.
    return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** What a device certificate's DER says (see the file's comment), or null when it is not read. */
export function readCertificateFields(der: Buffer): CertificateFields | null {
  const certificate = elementOf(der, 0, der.length, tags.sequence);
  if (!certificate || certificate.end !== der.length) {
    return null;
  }
  const tbs = elementOf(der, certificate.start, certificate.end, tags.sequence);
  if (!tbs) {
    return null;
  }
  let at = tbs.start;
  const version = element(der, at, tbs.end);
  if (version?.tag === tags.version) {
    at = version.end;
  }
  const serial = elementOf(der, at, tbs.end, tags.integer);
  const signature = serial && elementOf(der, serial.end, tbs.end, tags.sequence);
  const issuer = signature && elementOf(der, signature.end, tbs.end, tags.sequence);
  const validity = issuer && elementOf(der, issuer.end, tbs.end, tags.sequence);
  const subject = validity && elementOf(der, validity.end, tbs.end, tags.sequence);
  const info = subject && elementOf(der, subject.end, tbs.end, tags.sequence);
  if (!validity || !subject || !info) {
    return null;
  }
  const notBeforeElement = element(der, validity.start, validity.end);
  const notAfterElement = notBeforeElement && element(der, notBeforeElement.end, validity.end);
  if (!notBeforeElement || !notAfterElement || notAfterElement.end !== validity.end) {
    return null;
  }
  const notBefore = time(der, notBeforeElement);
  const notAfter = time(der, notAfterElement);
  const subjectNames = names(der, subject);
  const publicKey = notBefore && notAfter && subjectNames ? p256Key(der, info) : null;
  if (!notBefore || !notAfter || !subjectNames || !publicKey) {
    return null;
  }
  return { ...subjectNames, notBefore, notAfter, publicKey };
}

/**
 * The DER of the first certificate in PEM text (text before it is skipped, as OpenSSL does), or
 * null when there is none or its base64 is not exact.
 */
export function certificateDer(pem: string): Buffer | null {
  const body = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*)-----END CERTIFICATE-----/.exec(pem)?.[1];
  if (body === undefined) {
    return null;
  }
  const base64 = body.replace(/\s+/g, '');
  const der = Buffer.from(base64, 'base64');
  return der.length > 0 && der.toString('base64') === base64 ? der : null;
}
