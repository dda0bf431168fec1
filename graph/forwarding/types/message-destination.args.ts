import { ArgsType, Field, Int } from 'type-graphql';
import type { DestinationKind, DestinationState } from '../../../contracts/forwarding';
import { DestinationKindEnum, DestinationStateEnum } from './forwarding.enum';

/** The arguments of `messageDestinations`; their rules are messageDestinationListQuerySchema's (contracts/forwarding.ts). */
@ArgsType()
export class MessageDestinationListArgs {
  @Field(() => String, { nullable: true })
  filter?: string | null;

  @Field(() => String, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => DestinationKindEnum, { nullable: true })
  type?: DestinationKind | null;

  @Field(() => DestinationStateEnum, { nullable: true })
  state?: DestinationState | null;

  @Field(() => String, { nullable: true })
  offset?: string | null;

  @Field(() => Int, { nullable: true })
  rowsPerPage?: number | null;
}
