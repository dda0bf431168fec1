import type { GroupForwardingSettings, MessageType } from '../../../contracts/forwarding';
import { BaseModel } from '../../common/base.model';

/** The forwarding of a device group's reports of some message types to one message destination. */
export class GroupForwardingModel extends BaseModel {
  static override tableName = 'device_group_message_destinations';
  static override jsonAttributes = ['settings'];

  id!: number;
  deviceGroupId!: number;
  messageDestinationId!: number;
  /** A text[] column: read and written as a list. */
  messageTypes!: MessageType[];
  settings!: GroupForwardingSettings;
  createdAt!: Date;
  updatedAt!: Date;
}
