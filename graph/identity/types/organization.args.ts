import { ArgsType, Field, Int } from 'type-graphql';
import type { OrganizationType } from '../../../contracts/organization';
import { OrganizationTypeEnum } from './organization.enum';

/** The arguments of `organizations`; their rules are organizationListQuerySchema's. */
@ArgsType()
export class OrganizationListArgs {
  @Field(() => String, { nullable: true, description: 'Part of the name, case-insensitive.' })
  filter?: string | null;

  @Field(() => OrganizationTypeEnum, { nullable: true })
  type?: OrganizationType | null;

  @Field(() => String, { nullable: true, description: 'The nextPageOffset of the page before.' })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}
