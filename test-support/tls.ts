import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A self-signed certificate and key (P-256) named `name`, valid for `subjectAltName` (127.0.0.1
 * unless given), made in `folder` by Debian's openssl; a failure throws with openssl's words.
 */
export function selfSigned(
  folder: string,
  name: string,
  subjectAltName = 'IP:127.0.0.1',
): { certificatePem: string; privateKeyPem: string; certificateFile: string; keyFile: string } {
  const certificateFile = path.join(folder, `${name}.crt`);
  const keyFile = path.join(folder, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=${subjectAltName}`,
      '-keyout',
      keyFile,
      '-out',
      certificateFile,
    ],
    { stdio: 'pipe', timeout: 10_000 },
  );
  return { certificatePem: readFileSync(certificateFile, 'utf8'), privateKeyPem: readFileSync(keyFile, 'utf8'), certificateFile, keyFile };
}
