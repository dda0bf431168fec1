import { BaseModel } from '../../common/base.model';

export type FileStorage = 'database' | 'folder' | 's3';

export class FileModel extends BaseModel {
  static override tableName = 'files';

  id!: number;
  identifier!: string;
  name!: string;
  contentType!: string;
  size!: number;
  storage!: FileStorage;
  content!: Buffer | null;
  storageKey!: string | null;
  uploadedByUserId!: number | null;
  organizationId!: number | null;
  issueMessageId!: number | null;
  createdAt!: Date;
}
