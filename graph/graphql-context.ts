import type { Actor } from './common/context';
import type { Services } from './services';

/** What every GraphQL resolver of every subgraph receives: who is acting, and the services. */
export interface GraphqlContext {
  actor: Actor;
  services: Services;
}
