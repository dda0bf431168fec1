import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import {
  allowedFileTypes,
  filePath,
  uploadLimitBytes,
  type AllowedFileType,
  type FileUpload,
  type FileUploadedView,
  type FileView,
} from '../../../contracts/file';
import type { Actor } from '../../common/context';
import { authorize, isStaff } from '../../common/context';
import { FileModel } from '../models/file.model';
import { IssueMessageModel } from '../models/issue-message.model';
import { attachTemporaryFiles, fileIdentifierPattern } from './file-attachments';
import { externalFileStore, type ExternalFileStore, type FileSettings } from './file-store';
import type { IssueService } from './issue.service';

/** A file ready to be sent: its name and type, and its bytes (whole, or as a stream from its store). */
export interface FileContent {
  name: string;
  contentType: string;
  size: number;
  body: Buffer | Readable;
}

/** The first bytes of each binary type (its "magic"); the declared type must match them. */
const signatures: Record<Extract<AllowedFileType, `image/${string}` | 'application/pdf'>, (bytes: Buffer) => boolean> = {
  'image/png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (bytes) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  'image/gif': (bytes) => ['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1')),
  'image/webp': (bytes) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
  'application/pdf': (bytes) => bytes.subarray(0, 5).toString('latin1') === '%PDF-',
};

function isBinaryType(type: AllowedFileType): type is keyof typeof signatures {
  return Object.prototype.hasOwnProperty.call(signatures, type);
}

/** The binary type whose magic these bytes begin with, if any. */
function detectedBinaryType(bytes: Buffer): keyof typeof signatures | null {
  for (const [type, matches] of Object.entries(signatures) as [keyof typeof signatures, (bytes: Buffer) => boolean][]) {
    if (matches(bytes)) {
      return type;
    }
  }
  return null;
}

/**
 * A data URL's declared type and bytes (RFC 2397: `data:[<type>][;param...][;base64],<data>`).
 * One that does not decode is file_invalid.
 */
export function decodeDataUrl(dataUrl: string): { type: string; bytes: Buffer } {
  const comma = dataUrl.indexOf(',');
  // The header is short; a comma far into the text means there is no header.
  if (!dataUrl.startsWith('data:') || comma === -1 || comma > 1024) {
    throw new GridportError('file_invalid', { reason: 'the dataUrl is not a data URL (data:<type>;base64,<data>)' });
  }
  const [type = '', ...parameters] = dataUrl
    .slice(5, comma)
    .split(';')
    .map((part) => part.trim());
  const base64 = parameters.some((parameter) => parameter.toLowerCase() === 'base64');
  const data = dataUrl.slice(comma + 1);
  let bytes: Buffer;
  if (base64) {
    const compact = /\s/.test(data) ? data.replace(/\s+/g, '') : data;
    if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) {
      throw new GridportError('file_invalid', { reason: 'the data is not base64' });
    }
    bytes = Buffer.from(compact, 'base64');
  } else {
    try {
      bytes = Buffer.from(decodeURIComponent(data), 'utf8');
    } catch {
      throw new GridportError('file_invalid', { reason: 'the data is not correctly percent-encoded' });
    }
  }
  return { type: (type === '' ? 'text/plain' : type).toLowerCase(), bytes };
}

/**
 * Uploaded files (console.md sections 3 and 7, spec README "Operations"): who may upload how
 * much, which types are allowed (declared, and for images and PDF the bytes' magic too), where
 * the bytes are kept, who may read them, and attaching temporary uploads to an issue message.
 */
export class FileService {
  private readonly store: ExternalFileStore | null;

  constructor(
    private readonly db: Knex,
    /** Whose issues a customer may see: the one rule, IssueService's. */
    private readonly issues: Pick<IssueService, 'visible'>,
    settings: FileSettings = { storage: 'database' },
  ) {
    this.store = externalFileStore(settings);
  }

  /** Where new files are kept. */
  get storage(): FileModel['storage'] {
    return this.store?.kind ?? 'database';
  }

  /** Checks an upload and keeps it as a temporary file of its uploader until a message takes it. */
  async upload(actor: Actor, input: FileUpload): Promise<FileUploadedView> {
    authorize(actor, 'file.upload');
    const limit = uploadLimitBytes(actor.rights);
    const { type, bytes } = decodeDataUrl(input.dataUrl);
    if (!(allowedFileTypes as readonly string[]).includes(type)) {
      throw new GridportError('filetype_not_allowed', { contentType: type, allowed: allowedFileTypes });
    }
    if (bytes.length > limit) {
      throw new GridportError('file_too_large', { size: bytes.length, limit });
    }
    if (bytes.length === 0) {
      throw new GridportError('file_invalid', { reason: 'the file is empty' });
    }
    this.checkContent(type as AllowedFileType, bytes);

    const identifier = randomUUID();
    if (this.store) {
      await this.store.put(identifier, bytes, type);
    }
    try {
      await FileModel.query(this.db).insert({
        identifier,
        name: input.name,
        contentType: type,
        size: bytes.length,
        storage: this.storage,
        content: this.store ? null : bytes,
        storageKey: this.store ? identifier : null,
        uploadedByUserId: actor.userId,
        organizationId: actor.organizationId,
        issueMessageId: null,
      });
    } catch (error) {
      await this.store?.remove(identifier).catch(() => undefined);
      throw error;
    }
    return { url: filePath(identifier), fileIdentifier: identifier };
  }

  /**
   * Why a file that arrives otherwise than by upload (a mail's attachment) may not be kept, by the
   * checks an upload passes (its type allowed, not empty, the bytes what the type says); null when it may.
   */
  refusal(contentType: string, bytes: Buffer): string | null {
    if (!(allowedFileTypes as readonly string[]).includes(contentType)) {
      return `${contentType} is not kept: only PNG, JPEG, GIF and WebP images, PDF, CSV, plain text and JSON are`;
    }
    if (bytes.length === 0) {
      return 'the file is empty';
    }
    try {
      this.checkContent(contentType as AllowedFileType, bytes);
      return null;
    } catch (error) {
      if (error instanceof GridportError) {
        return (error.details as { reason?: string } | undefined)?.reason ?? error.message;
      }
      throw error;
    }
  }

  /** The bytes must be what the declared type says: an image or PDF by its magic, text as UTF-8 without NUL, JSON parsing. */
  private checkContent(type: AllowedFileType, bytes: Buffer): void {
    const detected = detectedBinaryType(bytes);
    if (isBinaryType(type)) {
      if (detected !== type) {
        throw new GridportError('filetype_not_allowed', { contentType: type, reason: `the bytes are not ${type}` });
      }
      return;
    }
    if (detected !== null || bytes.includes(0)) {
      throw new GridportError('filetype_not_allowed', { contentType: type, reason: `the bytes are not ${type}` });
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new GridportError('file_invalid', { reason: 'the text is not UTF-8' });
    }
    if (type === 'application/json') {
      try {
        JSON.parse(text);
      } catch {
        throw new GridportError('file_invalid', { reason: 'the file is not JSON' });
      }
    }
  }

  /**
   * A file to send to `actor`: its uploader, staff, and the customers who may see the issue
   * message it is attached to (a message they may read: not internal, on an issue that is not
   * internal, of their organisation or of a device they may see: IssueService.visible). Anyone else: not_found.
   */
  async read(actor: Actor, fileIdentifier: string): Promise<FileContent> {
    authorize(actor, 'file.read');
    const notFound = () => new GridportError('not_found', { fileIdentifier });
    if (!fileIdentifierPattern.test(fileIdentifier)) {
      throw notFound();
    }
    const file = await FileModel.query(this.db).findOne({ identifier: fileIdentifier.toLowerCase() });
    if (!file || !(await this.mayRead(actor, file))) {
      throw notFound();
    }
    const body = file.storage === 'database' ? (file.content ?? Buffer.alloc(0)) : await this.storeOf(file).get(file.storageKey ?? '');
    return { name: file.name, contentType: file.contentType, size: Number(file.size), body };
  }

  private storeOf(file: FileModel): ExternalFileStore {
    if (!this.store || this.store.kind !== file.storage) {
      throw new GridportError('service_unavailable', { reason: `the file is kept in ${file.storage}, which this server is not configured for` });
    }
    return this.store;
  }

  private async mayRead(actor: Actor, file: FileModel): Promise<boolean> {
    if (isStaff(actor) || (actor.userId !== null && file.uploadedByUserId === actor.userId)) {
      return true;
    }
    if (file.issueMessageId === null) {
      return false;
    }
    const message = await IssueMessageModel.query(this.db).findById(file.issueMessageId);
    if (!message || message.isInternal) {
      return false;
    }
    return (await this.issues.visible(actor, this.db).findById(message.issueId).select('issues.id')) !== undefined;
  }

  /**
   * Attaches temporary uploads of `userId` to a new issue message, in the message's transaction:
   * more than 10 files on the message is too_many_files; an identifier that is not such an
   * upload (someone else's, already attached, unknown) is no_temp_file_found.
   */
  async attach(trx: Knex.Transaction, userId: number | null, fileIdentifiers: readonly string[], messageId: number): Promise<FileView[]> {
    const attached = await attachTemporaryFiles(trx, userId, fileIdentifiers, messageId);
    return attached.map((file) => this.present(file));
  }

  /**
   * Removes temporary uploads made before `before` that no message took (at most `limit` at a
   * time, skipping rows another node is removing), with their bytes in the folder or S3.
   * Answers how many were removed.
   */
  async removeStaleUploads(before: Date, limit = 500): Promise<number> {
    const removed = await this.db.transaction(async (trx) => {
      const stale = await FileModel.query(trx)
        .whereNull('issue_message_id')
        .where('created_at', '<', before)
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .select('id', 'storage', 'storage_key');
      if (stale.length > 0) {
        await FileModel.query(trx)
          .delete()
          .whereIn(
            'id',
            stale.map((file) => file.id),
          );
      }
      return stale;
    });
    for (const file of removed) {
      if (file.storageKey !== null && this.store?.kind === file.storage) {
        // The row is gone; bytes left behind by a failed removal are unreachable and harmless.
        await this.store.remove(file.storageKey).catch(() => undefined);
      }
    }
    return removed.length;
  }

  /** The files of these messages, oldest first, by message id. */
  async ofMessages(db: Knex, messageIds: readonly number[]): Promise<Map<number, FileView[]>> {
    const byMessage = new Map<number, FileView[]>();
    if (messageIds.length === 0) {
      return byMessage;
    }
    const files = await FileModel.query(db)
      .whereIn('issue_message_id', [...new Set(messageIds)])
      .select('id', 'identifier', 'name', 'content_type', 'size', 'issue_message_id')
      .orderBy('id');
    for (const file of files) {
      const messageId = Number(file.issueMessageId);
      byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), this.present(file)]);
    }
    return byMessage;
  }

  present(file: FileModel): FileView {
    return { fileIdentifier: file.identifier, name: file.name, contentType: file.contentType, size: Number(file.size), url: filePath(file.identifier) };
  }
}
