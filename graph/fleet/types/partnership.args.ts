import { ArgsType, Field, Int } from 'type-graphql';
import type { PartnershipKind } from '../../../contracts/partnership';
import { PartnershipKindEnum } from './partnership.enum';

/** The arguments of `partnerships`; their rules are partnershipListQuerySchema's (contracts/partnership.ts). */
@ArgsType()
export class PartnershipListArgs {
  @Field(() => String, { nullable: true, description: 'Staff: part of the description or an organisation name.' })
  filter?: string | null;

  @Field(() => String, { nullable: true, description: 'Staff: partnerships in which this organisation takes part.' })
  organizationHashId?: string | null;

  @Field(() => PartnershipKindEnum, { nullable: true, description: 'Customers: own or accepted; both when not given.' })
  kind?: PartnershipKind | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}
