import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../graphql-context';
import { Actor, type ActorView } from '../../graph/identity/types/actor.type';

@Resolver(() => Actor)
export class MeResolver {
  @Query(() => Actor, { nullable: true, description: 'The one acting on this request; null when nobody is signed in.' })
  async me(@Ctx() { actor, services }: GraphqlContext): Promise<ActorView | null> {
    if (actor.kind === 'anonymous') {
      return null;
    }
    const organization = await services.organizations.ofActor(actor);
    return { kind: actor.kind, name: actor.name, rights: actor.rights, organization };
  }
}
