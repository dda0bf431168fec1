import path from 'node:path';
import { Client, utils, type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { GridportError } from '../../../contracts/errors';
import type { DestinationSettingsOf, ForwardedMessage } from '../../../contracts/forwarding';
import { resolveTarget } from './address-guard';
import type { DelivererFactory, DeliveryContext } from './deliverer';
import { batchFileContent, batchFileName, fileDeliveryTimeoutMs, partialFileName, withTimeout } from './files';

const connectTimeoutMs = 20_000;

/** The key type and blob of an OpenSSH public key line (`ssh-ed25519 AAAA… comment`, or a known_hosts line). */
export function parseHostKey(text: string): { type: string; blob: Buffer } {
  const tokens = text.trim().split(/\s+/);
  for (let index = 0; index + 1 < tokens.length; index++) {
    const type = tokens[index] ?? '';
    const blob = Buffer.from(tokens[index + 1] ?? '', 'base64');
    // The blob starts with its own type as an SSH string: a check that this is the key and not a comment.
    if (/^(ssh-|ecdsa-|sk-)/.test(type) && blob.length > 4 + type.length && blob.subarray(4, 4 + type.length).toString() === type) {
      return { type, blob };
    }
  }
  throw new Error('the hostKey setting is not an OpenSSH public key (type and base64 key, as in known_hosts)');
}

/** The host key algorithms that present a key of `type`: only that key is asked for, so a server with several presents the pinned one. */
function hostKeyAlgorithms(type: string): NonNullable<NonNullable<ConnectConfig['algorithms']>['serverHostKey']> {
  if (type === 'ssh-rsa') {
    return ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'];
  }
  return [type as 'ssh-ed25519'];
}

/**
 * Reads the private key (opened with its passphrase) before any connection, so that a wrong
 * passphrase or a damaged key is said as such rather than as a failed login.
 */
function checkPrivateKey(privateKey: string, passphrase: string | undefined): void {
  const parsed = utils.parseKey(privateKey, passphrase);
  if (parsed instanceof Error) {
    const how = passphrase === undefined ? '' : ' with privateKeyPassphrase';
    throw new Error(`the privateKey setting cannot be read${how}: ${parsed.message}`);
  }
}

function sftpCall<T>(call: (callback: (error: Error | null | undefined, result?: T) => void) => void): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    call((error, result) => (error ? reject(error) : resolve(result)));
  });
}

class SftpDeliverer {
  private connection: { client: Client; sftp: SFTPWrapper } | null = null;
  private hostKeyRefused = false;
  private readonly where: string;

  constructor(
    private readonly settings: DestinationSettingsOf<'sftp'>,
    private readonly context: DeliveryContext,
  ) {
    this.where = `SFTP ${settings.host}:${settings.port}`;
  }

  private async connect(): Promise<{ client: Client; sftp: SFTPWrapper }> {
    if (this.connection) {
      return this.connection;
    }
    const { settings } = this;
    // Connect to the address the guard checked; ssh2 opens no other connection.
    const target = await resolveTarget(settings.host, this.context.policy);
    if (settings.privateKey) {
      checkPrivateKey(settings.privateKey, settings.privateKeyPassphrase || undefined);
    }
    const pinned = settings.hostKey ? parseHostKey(settings.hostKey) : null;
    this.hostKeyRefused = false;
    const client = new Client();
    const config: ConnectConfig = {
      host: target.address,
      port: settings.port,
      username: settings.username,
      readyTimeout: connectTimeoutMs,
      keepaliveInterval: 30_000,
      ...(settings.password !== undefined ? { password: settings.password } : {}),
      ...(settings.privateKey ? { privateKey: settings.privateKey } : {}),
      ...(settings.privateKey && settings.privateKeyPassphrase ? { passphrase: settings.privateKeyPassphrase } : {}),
      ...(pinned
        ? {
            algorithms: { serverHostKey: hostKeyAlgorithms(pinned.type) },
            hostVerifier: (key: Buffer) => {
              this.hostKeyRefused = !key.equals(pinned.blob);
              return !this.hostKeyRefused;
            },
          }
        : {}),
    };
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
      client.once('error', reject);
      client.once('ready', () => {
        client.sftp((error, wrapper) => (error ? reject(error) : resolve(wrapper)));
      });
      client.connect(config);
    }).catch((error: unknown) => {
      client.end();
      throw error;
    });
    const connection = { client, sftp };
    // A connection the server or the network drops is opened anew by the next batch.
    client.on('error', () => undefined);
    client.on('close', () => {
      if (this.connection === connection) {
        this.connection = null;
      }
    });
    this.connection = connection;
    await this.ensureDirectory(sftp, settings.directory);
    return connection;
  }

  /** Creates the directory and its parents when missing (`mkdir -p`). */
  private async ensureDirectory(sftp: SFTPWrapper, directory: string): Promise<void> {
    if (directory === '.' || directory === '' || directory === '/') {
      return;
    }
    const parts = path.posix.normalize(directory).split('/');
    for (let index = 1; index <= parts.length; index++) {
      const prefix = parts.slice(0, index).join('/');
      if (prefix === '' || prefix === '.') {
        continue;
      }
      const exists = await sftpCall((done) => sftp.stat(prefix, done)).then(
        () => true,
        () => false,
      );
      if (!exists) {
        await sftpCall((done) => sftp.mkdir(prefix, done));
      }
    }
  }

  private async write(messages: readonly ForwardedMessage[]): Promise<void> {
    const { sftp } = await this.connect();
    const name = batchFileName(this.context.destinationHashId, messages, this.settings.format);
    const final = path.posix.join(this.settings.directory, name);
    const partial = path.posix.join(this.settings.directory, partialFileName(name));
    await sftpCall((done) => sftp.writeFile(partial, batchFileContent(messages, this.settings.format), done));
    try {
      // OpenSSH's posix-rename replaces the file a batch delivered before left; plain SFTP rename refuses to.
      await sftpCall((done) => sftp.ext_openssh_rename(partial, final, done));
    } catch (error) {
      if (!(error instanceof Error) || !/not support/i.test(error.message)) {
        throw error;
      }
      await sftpCall((done) => sftp.unlink(final, done)).catch(() => undefined);
      await sftpCall((done) => sftp.rename(partial, final, done));
    }
  }

  async deliver(messages: readonly ForwardedMessage[]): Promise<void> {
    if (messages.length === 0) {
      return;
    }
    try {
      await withTimeout(this.write(messages), fileDeliveryTimeoutMs, `${this.where}: writing the file`, () => this.drop());
    } catch (error) {
      this.drop();
      if (error instanceof GridportError) {
        throw error;
      }
      if (this.hostKeyRefused) {
        throw new Error(`${this.where}: the server's host key is not the one in the hostKey setting`);
      }
      throw new Error(`${this.where} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  drop(): void {
    const connection = this.connection;
    this.connection = null;
    connection?.client.end();
  }

  async close(): Promise<void> {
    try {
      this.drop();
    } catch {
      // Closing never fails a caller.
    }
  }
}

/**
 * sftp (docs/forwarding-kinds/files.md): each batch is one file in the directory, written under
 * a hidden name and renamed into place; with `hostKey`, the server must present that key. An
 * encrypted `privateKey` is opened with `privateKeyPassphrase`.
 */
export const sftpDeliverer: DelivererFactory<'sftp'> = (settings, context) => new SftpDeliverer(settings, context);
