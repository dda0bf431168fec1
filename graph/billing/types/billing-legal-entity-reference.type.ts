import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { NamedReference } from '../../../contracts/references';

/** A legal entity as another subgraph (a device's invoice details) refers to it; the billing subgraph resolves its fields. */
@ObjectType('BillingLegalEntity')
@Directive('@key(fields: "hashId", resolvable: false)')
export class BillingLegalEntityReference implements Pick<NamedReference, 'hashId'> {
  @Field(() => ID)
  hashId!: string;
}
