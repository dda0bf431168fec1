import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'basic-ftp';
import ipaddr from 'ipaddr.js';
import { GridportError } from '../../../contracts/errors';
import type { DestinationSettingsOf, ForwardedMessage } from '../../../contracts/forwarding';
import { resolveTarget } from './address-guard';
import type { DelivererFactory, DeliveryContext } from './deliverer';
import { batchFileContent, batchFileName, fileDeliveryTimeoutMs, partialFileName, withTimeout } from './files';

/** How long the server may stay silent on the control or data connection. */
const socketTimeoutMs = 20_000;

class FtpsDeliverer {
  private client: Client | null = null;
  private readonly where: string;

  constructor(
    private readonly settings: DestinationSettingsOf<'ftps'>,
    private readonly context: DeliveryContext,
  ) {
    this.where = `FTPS ${settings.host}:${settings.port}`;
  }

  private async connect(): Promise<Client> {
    if (this.client && !this.client.closed) {
      return this.client;
    }
    const { settings } = this;
    // The control connection goes to the address the guard checked; basic-ftp sends data
    // connections to that same address whatever a PASV answer names (allowSeparateTransferHost off).
    const target = await resolveTarget(settings.host, this.context.policy);
    const client = new Client(socketTimeoutMs);
    this.client = client;
    await client.access({
      host: target.address,
      port: settings.port,
      user: settings.username,
      password: settings.password ?? '',
      secure: settings.implicitTls ? 'implicit' : true,
      secureOptions: {
        // The certificate is checked against the name in the settings, not the address connected to.
        ...(ipaddr.isValid(settings.host.replace(/^\[(.*)\]$/, '$1')) ? {} : { servername: settings.host }),
        ...(settings.tlsCaCertificate ? { ca: settings.tlsCaCertificate } : {}),
      },
    });
    if (settings.directory !== '.' && settings.directory !== '') {
      // ensureDir also changes into the directory; come back, so every path stays relative to the login directory.
      const home = await client.pwd();
      await client.ensureDir(settings.directory);
      await client.cd(home);
    }
    return client;
  }

  private async write(messages: readonly ForwardedMessage[]): Promise<void> {
    const client = await this.connect();
    const name = batchFileName(this.context.destinationHashId, messages, this.settings.format);
    const final = path.posix.join(this.settings.directory, name);
    const partial = path.posix.join(this.settings.directory, partialFileName(name));
    await client.uploadFrom(Readable.from(batchFileContent(messages, this.settings.format)), partial);
    try {
      await client.rename(partial, final);
    } catch {
      // Servers on Unix replace the target (rename(2)); others refuse while a batch delivered before is there.
      await client.remove(final, true);
      await client.rename(partial, final);
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
      // basic-ftp's message of a TLS failure repeats "Error: "; the rest is what to show.
      throw new Error(`${this.where} failed: ${(error instanceof Error ? error.message : String(error)).replace(/^Error: /, '').trim()}`);
    }
  }

  drop(): void {
    const client = this.client;
    this.client = null;
    client?.close();
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
 * ftps (docs/forwarding-kinds/files.md): FTP over TLS (AUTH TLS, or implicit TLS), each batch
 * one file in the directory, uploaded under a hidden name and renamed into place.
 */
export const ftpsDeliverer: DelivererFactory<'ftps'> = (settings, context) => new FtpsDeliverer(settings, context);
