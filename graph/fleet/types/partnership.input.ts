import { Field, ID, InputType } from 'type-graphql';
import type { PartnershipRole } from '../../../contracts/fleet';
import { PartnershipRoleEnum } from './partnership.enum';

/* The bodies of the partnership mutations; their rules are those of contracts/partnership.ts. */

@InputType('PartnershipCreateInput')
export class PartnershipCreateInput {
  @Field(() => ID)
  ownerOrganizationHashId!: string;

  @Field(() => ID)
  partnerOrganizationHashId!: string;

  @Field(() => PartnershipRoleEnum)
  role!: PartnershipRole;

  @Field(() => String, { nullable: true })
  description?: string;

  @Field(() => Boolean, { nullable: true })
  allDevices?: boolean;

  @Field(() => [ID], { nullable: true })
  deviceHashIds?: string[];
}

@InputType('PartnershipUpdateInput')
export class PartnershipUpdateInput {
  @Field(() => PartnershipRoleEnum, { nullable: true })
  role?: PartnershipRole;

  @Field(() => String, { nullable: true })
  description?: string;

  @Field(() => Boolean, { nullable: true })
  allDevices?: boolean;

  @Field(() => [ID], { nullable: true })
  deviceHashIds?: string[];
}
