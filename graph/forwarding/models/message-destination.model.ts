import type { DestinationKind, DestinationMonitorSettings } from '../../../contracts/forwarding';
import { BaseModel } from '../../common/base.model';

/** A message destination: one organisation's place of one of the twelve kinds, its settings with each secret sealed ({ iv, encryptedData, tag }). */
export class MessageDestinationModel extends BaseModel {
  static override tableName = 'message_destinations';
  static override jsonAttributes = ['settings', 'outageEmails', 'outageUserIds', 'monitorSettings'];

  id!: number;
  organizationId!: number;
  name!: string;
  type!: DestinationKind;
  /** The kind's settings without `type`; secrets as EncryptedSecret (graph/common/secret-box.ts). */
  settings!: Record<string, unknown>;
  outageEmails!: string[];
  outageUserIds!: number[];
  monitorSettings!: DestinationMonitorSettings;
  createdAt!: Date;
  updatedAt!: Date;
}
