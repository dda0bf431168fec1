import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FileStorage } from '../models/file.model';
import { S3Client, type S3Settings } from './s3.client';

/**
 * Where uploaded files are kept (docs/operations.md, "Files"): in the database (the files
 * table's content column), in a folder (`<data folder>/files` in the embedded default), or in
 * an S3-compatible object store.
 */
export type FileSettings = { storage: 'database' } | { storage: 'folder'; folder: string } | { storage: 's3'; s3: S3Settings };

/** A store outside the database: the row keeps the key, the store the bytes. */
export interface ExternalFileStore {
  kind: Exclude<FileStorage, 'database'>;
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
}

/** Files as plain files in one folder, named by their identifier; written whole, then renamed into place. */
export class FolderFileStore implements ExternalFileStore {
  readonly kind = 'folder' as const;

  constructor(private readonly folder: string) {}

  private pathOf(key: string): string {
    // Keys are Gridport's own uuids; the check keeps a stored key from ever leaving the folder.
    if (!/^[0-9a-f-]{36}$/.test(key)) {
      throw new Error(`not a file key: ${key}`);
    }
    return path.join(this.folder, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const target = this.pathOf(key);
    const partial = `${target}.partial`;
    await writeFile(partial, bytes, { mode: 0o600 });
    await rename(partial, target);
  }

  async get(key: string): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key));
    // Opening fails late (on the first read); wait for it so a missing file is an error here, not mid-answer.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** Files as objects of one bucket, keyed by their identifier. */
export class S3FileStore implements ExternalFileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(settings: S3Settings) {
    this.client = new S3Client(settings);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.putObject(key, bytes, contentType);
  }

  async get(key: string): Promise<Readable> {
    return this.client.getObject(key);
  }

  async remove(key: string): Promise<void> {
    await this.client.deleteObject(key);
  }
}

/** The store of these settings; null keeps files in the database. */
export function externalFileStore(settings: FileSettings): ExternalFileStore | null {
  switch (settings.storage) {
    case 'database':
      return null;
    case 'folder':
      return new FolderFileStore(settings.folder);
    case 's3':
      return new S3FileStore(settings.s3);
  }
}
