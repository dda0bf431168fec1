import type { Operation, Right } from '../../contracts/rights';
import { accessVerdict, hasAnyRight } from '../../contracts/rights';
import { GridportError, type ErrorKey } from '../../contracts/errors';
import { providerOrganizationId } from '../../contracts/limits';

/** Who is acting: a signed-in user, an API key, or Gridport itself (command line, jobs). */
export interface Actor {
  kind: 'user' | 'apiKey' | 'system' | 'anonymous';
  userId: number | null;
  apiKeyId: number | null;
  organizationId: number | null;
  rights: readonly Right[];
  name: string;
  /** The console session a user acts through, if any. */
  sessionId?: number;
  /** Why an offered credential was refused (jwt_expired, unauthorized); answered when a route needs someone. */
  rejection?: ErrorKey;
}

export const anonymousActor: Actor = {
  kind: 'anonymous',
  userId: null,
  apiKeyId: null,
  organizationId: null,
  rights: [],
  name: 'anonymous',
};

/** Gridport acting on its own behalf: the operator command line, migrations, background jobs. */
export function systemActor(name: string): Actor {
  return {
    kind: 'system',
    userId: null,
    apiKeyId: null,
    organizationId: providerOrganizationId,
    rights: ['gridport.admin'],
    name,
  };
}

/** Throws unauthorized for nobody, forbidden for someone without any of `required`. */
export function requireRights(actor: Actor, required: readonly Right[]): void {
  if (actor.kind === 'anonymous') {
    throw new GridportError(actor.rejection ?? 'unauthorized');
  }
  if (!hasAnyRight(actor.rights, required)) {
    throw new GridportError('forbidden', { required });
  }
}

/**
 * Throws unless `actor` may do one of `operations` (contracts/rights.ts `accessRules`): the
 * one check of who may do what, made by the service method and, before any input is read, by
 * the REST route and the GraphQL field that serve it. Nobody is unauthorized (or the reason
 * their credential was refused); anyone else without a right or of the wrong kind is forbidden.
 */
export function authorize(actor: Actor, ...operations: [Operation, ...Operation[]]): void {
  const verdict = accessVerdict(actor.kind === 'system' ? null : actor.kind, actor.rights, operations);
  if (verdict === null) {
    return;
  }
  if (verdict.key === 'unauthorized') {
    throw new GridportError(actor.rejection ?? 'unauthorized');
  }
  throw new GridportError('forbidden', verdict.details);
}

export function isStaff(actor: Actor): boolean {
  return hasAnyRight(actor.rights, ['gridport.employee']);
}
