import { graphqlEnum } from '../../common/graphql-enum';
import { rights } from '../../../contracts/rights';
import type { Actor } from '../../common/context';

/** The kinds of actor `me` can show; the anonymous actor is shown as null. */
export const signedInActorKinds = ['user', 'apiKey', 'system'] as const satisfies readonly Actor['kind'][];
export type SignedInActorKind = (typeof signedInActorKinds)[number];

export const ActorKindEnum = graphqlEnum('ActorKind', signedInActorKinds, 'Who is acting: a signed-in user, an API key, or Gridport itself.');

export const RightEnum = graphqlEnum('Right', rights, 'A right an actor holds.');
