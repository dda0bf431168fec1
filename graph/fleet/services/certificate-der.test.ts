import { webcrypto, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { CertificateAuthority, ecdsaP256, ecdsaSha256, generateAuthority } from './certificate-authority';
import { certificateDer, readCertificateFields } from './certificate-der';

type X509Crypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.create>[1]>;
const x509Crypto = webcrypto as unknown as X509Crypto;

/** What OpenSSL reads of a certificate, in the reader's terms. */
function native(der: Buffer) {
  const certificate = new X509Certificate(der);
  const values = (attribute: string) =>
    certificate.subject.split('\n').flatMap((line) => (line.startsWith(`${attribute}=`) ? [line.slice(attribute.length + 1)] : []));
  return {
    organizations: values('O'),
    organizationalUnits: values('OU'),
    notBefore: new Date(certificate.validFrom),
    notAfter: new Date(certificate.validTo),
    key: certificate.publicKey.export({ format: 'jwk' }),
  };
}

function read(der: Buffer) {
  const fields = readCertificateFields(der);
  return fields && { ...fields, key: fields.publicKey.export({ format: 'jwk' }) };
}

async function selfSigned(
  name: string,
  keys: webcrypto.CryptoKeyPair,
  algorithm: Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['signingAlgorithm'],
  notAfter = new Date('2030-01-01T00:00:00Z'),
): Promise<Buffer> {
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    { serialNumber: '01', name, notBefore: new Date('2026-01-01T00:00:00Z'), notAfter, signingAlgorithm: algorithm, keys },
    x509Crypto,
  );
  return Buffer.from(certificate.rawData);
}

describe('reading a device certificate from its DER', () => {
  let authority: CertificateAuthority;
  let keys: webcrypto.CryptoKeyPair;

  beforeAll(async () => {
    const generated = await generateAuthority();
    authority = await CertificateAuthority.load(generated.certificatePem, generated.privateKeyPem);
    keys = (await webcrypto.subtle.generateKey(ecdsaP256, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  });

  it('reads what OpenSSL reads of the certificates the CA issues: subject, validity (UTCTime and GeneralizedTime) and key', async () => {
    const validities: [Date, Date][] = [
      [new Date('2026-11-28T10:11:12Z'), new Date('2036-11-28T10:11:12Z')],
      [new Date('1999-12-31T23:59:59Z'), new Date('2049-12-31T23:59:59Z')],
      [new Date('2026-01-01T00:00:00Z'), new Date('2050-01-01T00:00:00Z')],
      [new Date('2026-01-01T00:00:00Z'), new Date('9999-12-31T23:59:59Z')],
    ];
    for (const [index, [notBefore, notAfter]] of validities.entries()) {
      const deviceKeys = (await webcrypto.subtle.generateKey(ecdsaP256, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
      const issued = await authority.issue({ identifier: `gateway-${index}-a1`, publicKey: deviceKeys.publicKey, notBefore, notAfter });
      const der = certificateDer(issued.pem);
      expect(der).not.toBeNull();
      const fields = read(der as Buffer);
      expect(fields).toMatchObject(native(der as Buffer));
      expect(fields).toMatchObject({ organizations: ['device'], organizationalUnits: [`gateway-${index}-a1`], notBefore, notAfter });
    }
  });

  it('reads several O and OU values, and any string type, as OpenSSL does; a value in another string type as null', async () => {
    const der = await selfSigned('CN=x, OU=one, OU=two, O=device', keys, ecdsaSha256);
    expect(read(der)).toMatchObject({ organizations: ['device'], organizationalUnits: ['one', 'two'] });
    const printable = await selfSigned('OU=gateway-7, O=device', keys, ecdsaSha256);
    expect(read(printable)).toMatchObject(native(printable));
    // The OU's value as a BMPString (tag 0x1e): counted, not read.
    const bmp = Buffer.from(printable);
    // Self-signed: the subject's copy of the name is the second one (the issuer's comes first).
    const at = bmp.lastIndexOf(Buffer.from('gateway-7'));
    expect(at).toBeGreaterThan(0);
    bmp[at - 2] = 0x1e;
    expect(readCertificateFields(bmp)?.organizationalUnits).toEqual([null]);
  });

  it('reads no key but ECDSA P-256: RSA, P-384 and a point off the curve are null', async () => {
    const rsa = (await webcrypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    )) as webcrypto.CryptoKeyPair;
    expect(readCertificateFields(await selfSigned('OU=rsa, O=device', rsa, { name: 'RSASSA-PKCS1-v1_5' }))).toBeNull();
    const p384 = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    expect(readCertificateFields(await selfSigned('OU=p384, O=device', p384, { name: 'ECDSA', hash: 'SHA-384' }))).toBeNull();
    const der = await selfSigned('OU=off-curve, O=device', keys, ecdsaSha256);
    const point = der.indexOf(Buffer.from('034200', 'hex')) + 4;
    const off = Buffer.from(der);
    off[point + 63] = (off[point + 63] ?? 0) ^ 1;
    expect(readCertificateFields(off)).toBeNull();
  });

  it('refuses times that are not RFC 5280 DER times', async () => {
    const der = await selfSigned('OU=times, O=device', keys, ecdsaSha256);
    const utc = der.indexOf(Buffer.from('260101000000Z', 'latin1'));
    expect(utc).toBeGreaterThan(0);
    const mutate = (text: string) => {
      const copy = Buffer.from(der);
      copy.write(text, utc, 'latin1');
      return readCertificateFields(copy);
    };
    expect(mutate('261301000000Z')).toBeNull();
    expect(mutate('260132000000Z')).toBeNull();
    expect(mutate('260101240000Z')).toBeNull();
    expect(mutate('26010100000+Z')).toBeNull();
    expect(mutate('2601010000001')).toBeNull();
    expect(mutate('260101000000Z')).not.toBeNull();
  });

  it('answers null, never throws, for every truncation and for thousands of corrupted bytes', async () => {
    const issued = await authority.issue({ identifier: 'fuzzed', publicKey: keys.publicKey });
    const der = certificateDer(issued.pem) as Buffer;
    for (let length = 0; length < der.length; length += 1) {
      expect(readCertificateFields(der.subarray(0, length))).toBeNull();
    }
    expect(readCertificateFields(Buffer.concat([der, Buffer.from([0])]))).toBeNull();
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 5000; round += 1) {
      const copy = Buffer.from(der);
      for (let flips = 1 + (random() % 3); flips > 0; flips -= 1) {
        copy[random() % copy.length] = random() % 256;
      }
      const fields = readCertificateFields(copy);
      if (fields) {
        expect(fields.publicKey.asymmetricKeyType).toBe('ec');
      }
    }
    // Lengths: the long form for a short length, a leading zero, more than three length bytes, past the end.
    expect(readCertificateFields(Buffer.from('3081020500', 'hex'))).toBeNull();
    expect(readCertificateFields(Buffer.from('30820002' + '0500', 'hex'))).toBeNull();
    expect(readCertificateFields(Buffer.from('3084000000020500', 'hex'))).toBeNull();
    expect(readCertificateFields(Buffer.from('30830fffff', 'hex'))).toBeNull();
  });

  it('takes the first certificate of PEM text, skipping text before it, and refuses inexact base64', async () => {
    const issued = await authority.issue({ identifier: 'pem-forms', publicKey: keys.publicKey });
    const der = Buffer.from(issued.certificate.rawData);
    expect(certificateDer(issued.pem)?.equals(der)).toBe(true);
    expect(certificateDer(`Bag Attributes\r\n${issued.pem.replace(/\n/g, '\r\n')}\r\n`)?.equals(der)).toBe(true);
    expect(certificateDer(`${issued.pem}\n${issued.pem}`)?.equals(der)).toBe(true);
    expect(certificateDer(issued.pem.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\n*'))).toBeNull();
    // Padding bits that are not zero, and a length that is not whole.
    expect(certificateDer('-----BEGIN CERTIFICATE-----\nQUJDQQ==\n-----END CERTIFICATE-----')?.toString()).toBe('ABCA');
    expect(certificateDer('-----BEGIN CERTIFICATE-----\nQUJDQR==\n-----END CERTIFICATE-----')).toBeNull();
    expect(certificateDer('-----BEGIN CERTIFICATE-----\nQUJDQ\n-----END CERTIFICATE-----')).toBeNull();
    expect(certificateDer('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----')).toBeNull();
    expect(certificateDer('no certificate')).toBeNull();
    expect(certificateDer('-----BEGIN CERTIFICATE-----'.repeat(20_000))).toBeNull();
  });
});
