import { permissionsOf } from './permissions';

describe('permissions', () => {
  it.each([
    [['gridport.admin'], { isAdmin: true, isOpsOrAdmin: true, isSalesOrAdmin: true }],
    [['gridport.ops'], { isAdmin: false, isOpsOrAdmin: true, isSalesOrAdmin: false }],
    [['gridport.sales', 'gridport.employee'], { isAdmin: false, isOpsOrAdmin: false, isSalesOrAdmin: true }],
    [['gridport.developer'], { isAdmin: false, isOpsOrAdmin: false, isSalesOrAdmin: false }],
    [['customer.read', 'customer.write'], { isAdmin: false, isOpsOrAdmin: false, isSalesOrAdmin: false }],
  ] as const)('%p gives %p', (rights, flags) => {
    const { isAdmin, isOpsOrAdmin, isSalesOrAdmin } = permissionsOf(rights);
    expect({ isAdmin, isOpsOrAdmin, isSalesOrAdmin }).toEqual(flags);
  });

  it('checks a list of rights as the server does (any staff right implies employee)', () => {
    expect(permissionsOf(['gridport.developer']).can(['gridport.employee'])).toBe(true);
    expect(permissionsOf(['gridport.developer']).can(['gridport.ops', 'gridport.developer'])).toBe(true);
    expect(permissionsOf(['gridport.sales']).can(['gridport.ops', 'gridport.developer'])).toBe(false);
    expect(permissionsOf(['customer.read']).can(['customer.write'])).toBe(false);
  });

  it("decides an operation by the server's own rule", () => {
    expect(permissionsOf(['gridport.sales']).may('organization.create')).toBe(true);
    expect(permissionsOf(['gridport.sales']).may('userInvite.create')).toBe(false);
    expect(permissionsOf(['gridport.ops']).may('userInvite.create')).toBe(true);
    expect(permissionsOf(['gridport.employee']).may('deviceGroup.create')).toBe(false);
    expect(permissionsOf(['gridport.admin']).may('deviceGroup.create')).toBe(true);
    // Console operations only: a console session may not do what only API keys do.
    expect(permissionsOf(['gridport.developer']).may('contact.manage')).toBe(false);
  });
});
