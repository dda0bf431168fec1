import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { fileLimits } from '../../../contracts/file';
import { FileModel } from '../models/file.model';

/** A file identifier as uploads get them (a UUID). */
export const fileIdentifierPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Attaches temporary uploads of `userId` to an issue message, in the message's transaction (the
 * one rule, for every way a message is posted): more than fileLimits.filesPerMessage files on
 * the message is too_many_files; an identifier that is not such an upload (someone else's,
 * attached already, unknown) is no_temp_file_found, and nothing is attached. Answers the files.
 */
export async function attachTemporaryFiles(
  trx: Knex.Transaction,
  userId: number | null,
  fileIdentifiers: readonly string[],
  messageId: number,
): Promise<FileModel[]> {
  const wanted = [...new Set(fileIdentifiers.map((identifier) => identifier.toLowerCase()))];
  if (wanted.length === 0) {
    return [];
  }
  const already = await FileModel.query(trx).where('issue_message_id', messageId).resultSize();
  if (already + wanted.length > fileLimits.filesPerMessage) {
    throw new GridportError('too_many_files', { count: already + wanted.length, max: fileLimits.filesPerMessage });
  }
  const valid = wanted.filter((identifier) => fileIdentifierPattern.test(identifier));
  const found =
    userId === null || valid.length === 0
      ? []
      : await FileModel.query(trx).whereIn('identifier', valid).whereNull('issue_message_id').where('uploaded_by_user_id', userId).forUpdate();
  const foundIdentifiers = new Set(found.map((file) => file.identifier.toLowerCase()));
  const missing = wanted.filter((identifier) => !foundIdentifiers.has(identifier));
  if (missing.length > 0) {
    throw new GridportError('no_temp_file_found', { fileIdentifiers: missing });
  }
  await FileModel.query(trx)
    .patch({ issueMessageId: messageId })
    .whereIn(
      'id',
      found.map((file) => file.id),
    );
  return found;
}
