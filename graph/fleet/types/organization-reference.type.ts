import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { NamedReference } from '../../../contracts/references';

/** An organisation as the fleet refers to it; the identity subgraph resolves its fields. */
@ObjectType('Organization')
@Directive('@key(fields: "hashId", resolvable: false)')
export class OrganizationReference implements Pick<NamedReference, 'hashId'> {
  @Field(() => ID)
  hashId!: string;
}
