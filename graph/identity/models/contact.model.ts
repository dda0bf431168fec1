import { BaseModel } from '../../common/base.model';
import type { ContactRole } from '../../../contracts/contact';

export class ContactModel extends BaseModel {
  static override tableName = 'contacts';
  static override jsonAttributes = ['roles'];

  id!: number;
  organizationId!: number | null;
  roles!: ContactRole[];
  name!: string;
  email!: string;
  phone!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}
