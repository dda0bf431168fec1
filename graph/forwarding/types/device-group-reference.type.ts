import { Directive, Field, ID, ObjectType } from 'type-graphql';
import type { NamedReference } from '../../../contracts/references';

/**
 * A device group as forwarding refers to it: the fleet subgraph resolves its own fields, and this
 * one adds `messageDestinations` (resolvers/forwarding/device-group-reference.resolver.ts).
 */
@ObjectType('DeviceGroup')
@Directive('@key(fields: "hashId")')
export class DeviceGroupReference implements Pick<NamedReference, 'hashId'> {
  @Field(() => ID)
  hashId!: string;
}
