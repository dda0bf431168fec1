import { GridportError } from '../../contracts/errors';
import { isStaff, type Actor } from './context';
import type { HashIds } from './hash-ids';

/**
 * The organisation a list is limited to, for an actor who may name one: staff see every
 * organisation (null) or the one they name (not_found when the hash id does not decode); a
 * customer sees their own, and naming another is forbidden_organization.
 */
export function listOrganizationScope(actor: Actor, hashIds: HashIds, organizationHashId: string | undefined): number | null {
  const named = organizationHashId === undefined ? undefined : hashIds.decode('organization', organizationHashId);
  if (!isStaff(actor)) {
    if (named !== undefined && named !== actor.organizationId) {
      throw new GridportError('forbidden_organization', { organizationHashId });
    }
    return actor.organizationId ?? -1;
  }
  if (named === null) {
    throw new GridportError('not_found', { organizationHashId });
  }
  return named ?? null;
}
