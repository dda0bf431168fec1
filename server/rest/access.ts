import { accessRules, type Operation } from '../../contracts/rights';
import type { RouteActorKind, RouteAuth } from './route';

/**
 * The `auth` and `actors` of a route that serves `operation`, from the one table of who may do
 * what (contracts/rights.ts): the route checks them before it reads the body, and the service
 * it calls checks the same operation again.
 */
export function access(operation: Operation): { auth: RouteAuth; actors?: readonly RouteActorKind[] } {
  const rule = accessRules[operation];
  return rule.public ? { auth: 'public' } : { auth: rule.rights, actors: rule.callers };
}
