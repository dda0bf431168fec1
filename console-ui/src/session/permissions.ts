import { hasAnyRight, type Right } from '../../../contracts/rights';

/** The flags screens decide controls by (console.md section 6); admin passes every check. */
export interface Permissions {
  isAdmin: boolean;
  isOpsOrAdmin: boolean;
  isSalesOrAdmin: boolean;
  /** Whether the rights pass a check that asks for any of `required` (contracts/rights.ts rules). */
  can(required: readonly Right[]): boolean;
}

export function permissionsOf(rights: readonly Right[]): Permissions {
  return {
    isAdmin: rights.includes('gridport.admin'),
    isOpsOrAdmin: hasAnyRight(rights, ['gridport.ops']),
    isSalesOrAdmin: hasAnyRight(rights, ['gridport.sales']),
    can: (required) => hasAnyRight(rights, required),
  };
}
