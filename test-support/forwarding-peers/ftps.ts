import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { ForwardingPeer, PeerStarter } from './peer';
import {
  breakDirectory,
  freePort,
  freePortRange,
  healDirectory,
  programMissing,
  receivedFromDirectory,
  rootMissing,
  run,
  selfSignedCertificate,
  startServer,
} from './http-and-files-support';

const vsftpd = '/usr/sbin/vsftpd';
/** The local user the peer logs in (vsftpd's PAM service wants a real account with a shell from /etc/shells). */
const ftpUser = 'gridport-ftps';

export interface FtpsPeer extends ForwardingPeer {
  /** The local directory the settings' `directory` names (files land here). */
  directory: string;
}

export interface FtpsPeerStarter extends PeerStarter {
  start(): Promise<FtpsPeer>;
  /** A server that speaks TLS at once (vsftpd's implicit_ssl) rather than after AUTH TLS. */
  startImplicitTls(): Promise<FtpsPeer>;
}

/** One password a test process, so that servers it starts side by side share the account. */
let userPassword: string | null = null;

/** Creates the test's FTP account when missing, and gives it a new password once a test process. */
function ensureUser(): string {
  if (userPassword !== null) {
    return userPassword;
  }
  const password = randomBytes(12).toString('hex');
  // vsftpd changes into the home directory before local_root: `/` always exists.
  if (spawnSync('id', ['-u', ftpUser]).status !== 0) {
    run('/usr/sbin/useradd', ['--system', '--no-create-home', '--home-dir', '/', '--shell', '/bin/sh', ftpUser]);
  } else {
    run('/usr/sbin/usermod', ['--home', '/', '--shell', '/bin/sh', ftpUser]);
  }
  run('/usr/sbin/chpasswd', [], `${ftpUser}:${password}\n`);
  userPassword = password;
  return password;
}

/**
 * The ftps peer: Debian's vsftpd started as root on a free port of 127.0.0.1 with its own
 * config in a temp dir: AUTH TLS required for logins and data with a self-signed certificate
 * made by openssl (127.0.0.1 and localhost), passive ports on a free range, and the local user
 * `gridport-ftps` (created on first use, a new password each run) whose login directory is the
 * temp dir. Files land in <temp>/ftp/incoming, which the deliverer creates. While broken, a
 * plain file stands where that directory was.
 */
export const ftpsPeer: FtpsPeerStarter = {
  kind: 'ftps',
  missing: () =>
    programMissing(vsftpd, 'vsftpd') ?? programMissing('/usr/bin/openssl', 'openssl') ?? programMissing('/usr/sbin/useradd', 'passwd') ?? rootMissing('vsftpd'),
  start: () => startVsftpd(false),
  startImplicitTls: () => startVsftpd(true),
};

async function startVsftpd(implicitTls: boolean): Promise<FtpsPeer> {
  const temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gridport-vsftpd-'));
  // The FTP user walks through the temp dir to its login directory.
  await fs.chmod(temp, 0o755);
  const password = ensureUser();
  const root = path.join(temp, 'ftp');
  await fs.mkdir(root);
  run('/usr/bin/chown', [ftpUser, root]);
  const empty = path.join(temp, 'empty');
  await fs.mkdir(empty, { mode: 0o755 });
  const certificate = selfSignedCertificate(temp);
  const port = await freePort();
  const passive = await freePortRange(8);
  const config = path.join(temp, 'vsftpd.conf');
  await fs.writeFile(
    config,
    [
      'listen=YES',
      'listen_ipv6=NO',
      'listen_address=127.0.0.1',
      `listen_port=${port}`,
      'background=NO',
      'anonymous_enable=NO',
      'local_enable=YES',
      'write_enable=YES',
      'local_umask=022',
      `local_root=${root}`,
      'chroot_local_user=NO',
      'pasv_enable=YES',
      'pasv_address=127.0.0.1',
      `pasv_min_port=${passive}`,
      `pasv_max_port=${passive + 7}`,
      'connect_from_port_20=NO',
      'ssl_enable=YES',
      `rsa_cert_file=${certificate.certFile}`,
      `rsa_private_key_file=${certificate.keyFile}`,
      'allow_anon_ssl=NO',
      'force_local_logins_ssl=YES',
      'force_local_data_ssl=YES',
      'ssl_tlsv1=YES',
      'ssl_sslv2=NO',
      'ssl_sslv3=NO',
      'ssl_ciphers=HIGH',
      'require_ssl_reuse=YES',
      `implicit_ssl=${implicitTls ? 'YES' : 'NO'}`,
      // The seccomp sandbox and the namespaces of a session (isolate) fail in containers, with a bare "500 OOPS:".
      'seccomp_sandbox=NO',
      'isolate=NO',
      'isolate_network=NO',
      `secure_chroot_dir=${empty}`,
      'pam_service_name=vsftpd',
      'xferlog_enable=NO',
      'syslog_enable=NO',
      `vsftpd_log_file=${temp}/vsftpd.log`,
      '',
    ].join('\n'),
  );
  const server = await startServer(vsftpd, [config], port);
  const directory = path.join(root, 'incoming');
  return {
    kind: 'ftps',
    directory,
    settings: {
      host: '127.0.0.1',
      port,
      implicitTls,
      username: ftpUser,
      password,
      tlsCaCertificate: await certificate.cert,
      directory: 'incoming',
      format: 'synaptiq',
    },
    received: () => receivedFromDirectory(directory),
    break: () => breakDirectory(directory),
    heal: () => healDirectory(directory),
    async stop() {
      await server.stop();
      await fs.rm(temp, { recursive: true, force: true });
    },
  };
}
