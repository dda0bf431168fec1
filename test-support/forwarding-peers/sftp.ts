import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ForwardingPeer, PeerStarter } from './peer';
import { breakDirectory, freePort, healDirectory, programMissing, receivedFromDirectory, rootMissing, run, startServer } from './http-and-files-support';

const sshd = '/usr/sbin/sshd';
const sshKeygen = '/usr/bin/ssh-keygen';

export interface SftpPeer extends ForwardingPeer {
  /** The local directory the settings' `directory` names (files land here). */
  directory: string;
  /** Lets the client key whose public half this is log in too (an OpenSSH `.pub` line). */
  authorize(publicKey: string): Promise<void>;
}

export interface SftpPeerStarter extends PeerStarter {
  start(): Promise<SftpPeer>;
}

/**
 * The sftp peer: Debian's sshd started as root on a free port of 127.0.0.1 with its own
 * sshd_config, an ed25519 host key and an authorized key in a temp dir. It logs in root by key
 * only (no system user to create; no chroot, whose directories must be root's all the way up,
 * which /tmp is not), serving internal-sftp; files land in <temp>/upload/incoming, which the
 * deliverer creates. While broken, a plain file stands where that directory was.
 */
export const sftpPeer: SftpPeerStarter = {
  kind: 'sftp',
  missing: () => programMissing(sshd, 'openssh-server') ?? programMissing(sshKeygen, 'openssh-client') ?? rootMissing('sshd'),
  async start() {
    const temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gridport-sshd-'));
    const hostKey = path.join(temp, 'host_ed25519');
    const clientKey = path.join(temp, 'client_ed25519');
    run(sshKeygen, ['-q', '-t', 'ed25519', '-N', '', '-C', 'gridport-test-host', '-f', hostKey]);
    run(sshKeygen, ['-q', '-t', 'ed25519', '-N', '', '-C', 'gridport-test-client', '-f', clientKey]);
    const authorizedKeys = path.join(temp, 'authorized_keys');
    await fs.copyFile(`${clientKey}.pub`, authorizedKeys);
    await fs.mkdir(path.join(temp, 'upload'));
    // sshd refuses to start without its privilege separation directory (the Debian service makes it).
    await fs.mkdir('/run/sshd', { recursive: true, mode: 0o755 });
    const port = await freePort();
    const config = path.join(temp, 'sshd_config');
    await fs.writeFile(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${hostKey}`,
        `PidFile ${temp}/sshd.pid`,
        `AuthorizedKeysFile ${authorizedKeys}`,
        'PermitRootLogin prohibit-password',
        'AllowUsers root',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'StrictModes no',
        'X11Forwarding no',
        'AllowTcpForwarding no',
        'Subsystem sftp internal-sftp',
        'LogLevel ERROR',
        '',
      ].join('\n'),
    );
    const server = await startServer(sshd, ['-D', '-e', '-f', config], port);
    const directory = path.join(temp, 'upload', 'incoming');
    return {
      kind: 'sftp',
      directory,
      settings: {
        host: '127.0.0.1',
        port,
        username: 'root',
        privateKey: await fs.readFile(clientKey, 'utf8'),
        hostKey: await fs.readFile(`${hostKey}.pub`, 'utf8'),
        directory,
        format: 'synaptiq',
      },
      authorize: (publicKey) => fs.appendFile(authorizedKeys, `${publicKey.trim()}\n`),
      received: () => receivedFromDirectory(directory),
      break: () => breakDirectory(directory),
      heal: () => healDirectory(directory),
      async stop() {
        await server.stop();
        await fs.rm(temp, { recursive: true, force: true });
      },
    };
  },
};
