/** Rights (spec README "Rights"; console.md section 6; api.md section 6). */
export const staffRights = [
  'gridport.admin',
  'gridport.ops',
  'gridport.developer',
  'gridport.sales',
  'gridport.employee',
] as const;
export const customerRights = ['customer.read', 'customer.write'] as const;
export const rights = [...staffRights, ...customerRights] as const;

/** Any signed-in person: every staff right implies employee, every customer reads. */
export const anyUserRights = ['gridport.employee', 'customer.read', 'customer.write'] as const satisfies readonly Right[];

export type StaffRight = (typeof staffRights)[number];
export type CustomerRight = (typeof customerRights)[number];
export type Right = (typeof rights)[number];

export function isStaffRight(right: string): right is StaffRight {
  return (staffRights as readonly string[]).includes(right);
}

/**
 * Whether someone holding `held` passes a check that asks for any of `required`.
 * Admin passes every check; any staff right implies employee.
 */
export function hasAnyRight(held: readonly Right[], required: readonly Right[]): boolean {
  if (held.includes('gridport.admin')) {
    return true;
  }
  const isStaff = held.some(isStaffRight);
  return required.some((right) => held.includes(right) || (right === 'gridport.employee' && isStaff));
}
