import { accessVerdict, hasAnyRight, type Operation, type Right } from '../../../contracts/rights';

/** The flags screens decide controls by (console.md section 6); admin passes every check. */
export interface Permissions {
  isAdmin: boolean;
  isOpsOrAdmin: boolean;
  isSalesOrAdmin: boolean;
  /** Whether the rights pass a check that asks for any of `required` (contracts/rights.ts rules). */
  can(required: readonly Right[]): boolean;
  /** Whether a console session with these rights may do `operation`: the server's own rule (contracts/rights.ts accessRules). */
  may(operation: Operation): boolean;
}

export function permissionsOf(rights: readonly Right[]): Permissions {
  return {
    isAdmin: rights.includes('gridport.admin'),
    isOpsOrAdmin: hasAnyRight(rights, ['gridport.ops']),
    isSalesOrAdmin: hasAnyRight(rights, ['gridport.sales']),
    can: (required) => hasAnyRight(rights, required),
    may: (operation) => accessVerdict('user', rights, [operation]) === null,
  };
}
