import { ArgsType, Field, ID, Int } from 'type-graphql';
import type { DeviceStatus } from '../../../contracts/fleet';
import { DeviceStatusEnum } from './device.enum';

/** The arguments of `devices`: staff get the admin filters, customers the status filter. */
@ArgsType()
export class DeviceListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the name or identifier.' })
  filter?: string | null;

  @Field(() => ID, { nullable: true })
  hashId?: string | null;

  @Field(() => String, { nullable: true, description: 'A group hash id, or any, or none (staff).' })
  deviceGroupHashId?: string | null;

  @Field(() => String, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => String, { nullable: true })
  assetType?: string | null;

  @Field(() => String, { nullable: true })
  assetIdentifier?: string | null;

  @Field(() => String, { nullable: true })
  iccid?: string | null;

  @Field(() => String, { nullable: true })
  imsi?: string | null;

  @Field(() => String, { nullable: true })
  activeControlType?: string | null;

  @Field(() => String, { nullable: true })
  activeControlIdentifier?: string | null;

  @Field(() => DeviceStatusEnum, { nullable: true, description: 'Customers only.' })
  status?: DeviceStatus | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}
