import { Field, ObjectType } from 'type-graphql';
import type { OrganizationView } from '../../../contracts/organization';
import type { Right } from '../../../contracts/rights';
import { ActorKindEnum, RightEnum, type SignedInActorKind } from './actor.enum';
import { Organization } from './organization.type';

/** The one acting on a request, as `me` shows it. */
export interface ActorView {
  kind: SignedInActorKind;
  name: string;
  rights: readonly Right[];
  organization: OrganizationView | null;
}

@ObjectType('Actor', { description: 'The one acting on this request.' })
export class Actor implements ActorView {
  @Field(() => ActorKindEnum)
  kind!: SignedInActorKind;

  @Field(() => String)
  name!: string;

  @Field(() => [RightEnum])
  rights!: readonly Right[];

  @Field(() => Organization, { nullable: true, description: 'Null for Gridport itself.' })
  organization!: OrganizationView | null;
}
