import { GridportError } from './errors';

/** Rights (spec README "Rights"; console.md section 6; api.md section 6). */
export const staffRights = ['gridport.admin', 'gridport.ops', 'gridport.developer', 'gridport.sales', 'gridport.employee'] as const;
export const customerRights = ['customer.read', 'customer.write'] as const;
export const rights = [...staffRights, ...customerRights] as const;

/** Who writes in the admin console (devices, groups, partnerships, API keys): Ops and Developer (console.md section 6; Admin passes every check). */
export const staffWriterRights = ['gridport.ops', 'gridport.developer'] as const satisfies readonly StaffRight[];

/** Any signed-in person: every staff right implies employee, every customer reads. */
export const anyUserRights = ['gridport.employee', 'customer.read', 'customer.write'] as const satisfies readonly Right[];

export type StaffRight = (typeof staffRights)[number];
export type CustomerRight = (typeof customerRights)[number];
export type Right = (typeof rights)[number];

export function isStaffRight(right: string): right is StaffRight {
  return (staffRights as readonly string[]).includes(right);
}

/** Who holds rights, as the refusal of a misplaced right names them. */
const holders = {
  user: { provider: 'Users of the provider organisation hold', customer: 'Customer users hold' },
  apiKey: { provider: 'Keys of the provider organisation carry', customer: 'Customer keys carry' },
} as const;

/**
 * Staff rights only in the provider organisation, customer rights only in customer ones: refuses
 * `requested` with payload_invalid on rights, naming those that do not belong.
 */
export function checkRightsFitOrganization(requested: readonly Right[], inProvider: boolean, holder: keyof typeof holders): void {
  const wrong = requested.filter((right) => isStaffRight(right) !== inProvider);
  if (wrong.length === 0) {
    return;
  }
  const kind = inProvider ? 'staff' : 'customer';
  const who = holders[holder][inProvider ? 'provider' : 'customer'];
  throw new GridportError('payload_invalid', [{ path: 'rights', message: `${who} ${kind} rights only, not ${wrong.join(', ')}` }]);
}

/**
 * Whether an invite by someone holding `held` may carry `right`: staff rights are given by Admin
 * (docs/rights.md), so others invite customers and read-only staff (gridport.employee) only.
 */
export function inviteMayGrant(held: readonly Right[], right: Right): boolean {
  return !isStaffRight(right) || right === 'gridport.employee' || held.includes('gridport.admin');
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

/**
 * Who is calling: a person in a console session (staff or customer, told apart by their
 * rights), or an API key (a customer organisation's carries customer.read and customer.write, a
 * provider key the staff rights of the user who made it). Gridport itself (command line, jobs)
 * is not a caller kind: it passes every kind check and holds its rights like anyone else.
 */
export const callerKinds = ['user', 'apiKey'] as const;
export type CallerKind = (typeof callerKinds)[number];

/** Who may do one operation: anyone, or callers of these kinds holding any of these rights. */
export type AccessRule = { public: true } | { public?: false; callers: readonly CallerKind[]; rights: readonly Right[] };

const anyone: AccessRule = { public: true };
const consoleUsers = (...required: Right[]): AccessRule => ({ callers: ['user'], rights: required });
const apiKeys = (...required: Right[]): AccessRule => ({ callers: ['apiKey'], rights: required });

const staffWriters = consoleUsers(...staffWriterRights);
const employee = 'gridport.employee';
const ops = 'gridport.ops';
const developer = 'gridport.developer';
const sales = 'gridport.sales';
const customerRead = 'customer.read';
const customerWrite = 'customer.write';

/**
 * Who may do what, decided once (console.md section 6, api.md section 6; docs/rights.md says
 * it in words). Every REST route and every GraphQL root field names the operations it serves;
 * the service method that does the work checks the same names (graph/common/context.ts
 * `authorize`), so the two interfaces cannot differ. Console operations take console sessions
 * only; the public API's (steering, contacts, the developer channel) take API keys only.
 */
export const accessRules = {
  // Signing in and what needs no one.
  'health.read': anyone,
  'session.login': anyone,
  'session.whoami': consoleUsers(employee, customerRead, customerWrite),
  'session.logout': consoleUsers(employee, customerRead, customerWrite),
  'staff.signIn': anyone,
  'passwordReset.use': anyone,
  'userInvite.accept': anyone,
  'device.provision': anyone,
  'twoFactor.manage': consoleUsers(customerRead, customerWrite),

  // Organisations, users, invites, the audit log, test mail.
  'organization.list': consoleUsers(employee),
  'organization.read': consoleUsers(employee),
  /** A customer's own organisation and its partners' names (GraphQL `organization`; REST gives it in whoami). */
  'organization.readOwn': consoleUsers(customerRead, customerWrite),
  'organization.create': consoleUsers(ops, developer, sales),
  'organization.update': consoleUsers(ops, developer, sales),
  'user.list': consoleUsers(employee),
  'user.read': consoleUsers(employee),
  'user.listOwn': consoleUsers(customerRead, customerWrite),
  /** Staff rights and staff users further need Admin (UserService.update). */
  'user.update': consoleUsers(ops),
  'userInvite.create': consoleUsers(ops),
  'userInvite.list': consoleUsers(employee),
  'userInvite.revoke': consoleUsers(ops),
  'userInvite.listOwn': consoleUsers(customerRead, customerWrite),
  'auditLog.list': consoleUsers(employee),
  'mail.sendTest': staffWriters,

  // API keys and contacts (api.md section 6).
  'apiKey.read': consoleUsers(employee),
  'apiKey.list': consoleUsers(employee),
  'apiKey.create': staffWriters,
  'apiKey.reset': staffWriters,
  'apiKey.update': staffWriters,
  'apiKey.delete': staffWriters,
  'contact.manage': apiKeys(developer),

  // Devices in the admin console.
  'device.list': consoleUsers(employee),
  'device.read': consoleUsers(employee),
  'device.update': staffWriters,
  'device.reopenProvisioning': staffWriters,
  'device.updateInvoiceDetails': consoleUsers(ops, sales),
  'device.pinFirmware': staffWriters,
  'device.sendMessage': staffWriters,
  'device.tickets': consoleUsers(employee),
  'device.liveEvents': consoleUsers(employee),
  'firmware.latest': consoleUsers(employee),
  // Devices in the customer console: every signed-in person reads the devices they may see; writing outage contacts is a write.
  'device.listVisible': consoleUsers(employee, customerRead, customerWrite),
  'device.count': consoleUsers(employee, customerRead, customerWrite),
  'device.readVisible': consoleUsers(employee, customerRead, customerWrite),
  'device.updateOutageContacts': consoleUsers(customerWrite, ...staffWriterRights),

  // Device groups and partnerships.
  'deviceGroup.list': consoleUsers(employee),
  'deviceGroup.read': consoleUsers(employee),
  'deviceGroup.create': staffWriters,
  'deviceGroup.update': staffWriters,
  'deviceGroup.delete': staffWriters,
  'deviceGroup.linkApiKey': staffWriters,
  'deviceGroup.unlinkApiKey': staffWriters,
  'partnership.list': consoleUsers(employee),
  'partnership.listOfDevice': consoleUsers(employee),
  'partnership.create': staffWriters,
  'partnership.update': staffWriters,
  'partnership.delete': staffWriters,
  'partnership.listOwn': consoleUsers(employee, customerRead, customerWrite),

  // Forwarding (console.md section 6): staff read, Ops and Developer write, only Developer resumes a destination;
  // customers list their organisation's destinations, read-only.
  'messageDestination.list': consoleUsers(employee),
  'messageDestination.read': consoleUsers(employee),
  'messageDestination.listOwn': consoleUsers(customerRead, customerWrite),
  'messageDestination.create': staffWriters,
  'messageDestination.update': staffWriters,
  'messageDestination.resume': consoleUsers(developer),
  'groupForwarding.list': consoleUsers(employee),
  'groupForwarding.read': consoleUsers(employee),
  'groupForwarding.create': staffWriters,
  'groupForwarding.update': staffWriters,
  'groupForwarding.delete': staffWriters,

  // Billing invoices (console.md section 6): staff read them and their PDF (Employee); the invoicing job makes them.
  'billingInvoice.list': consoleUsers(employee),
  'billingInvoice.read': consoleUsers(employee),
  'billingInvoice.pdf': consoleUsers(employee),

  // Issues, alarms and their messages (console.md sections 6 and 7): staff manage them (Employee); customers read the
  // issues of devices they may see, post messages and subscribe.
  'issue.list': consoleUsers(employee),
  'issue.read': consoleUsers(employee),
  'issue.update': consoleUsers(employee),
  'issue.resolve': consoleUsers(employee),
  'issue.reopen': consoleUsers(employee),
  'issue.manageSubscribers': consoleUsers(employee),
  'issueMessage.create': consoleUsers(employee),
  'issueMessage.update': consoleUsers(employee),
  'issue.listVisible': consoleUsers(employee, customerRead, customerWrite),
  'issue.countVisible': consoleUsers(employee, customerRead, customerWrite),
  'issue.readVisible': consoleUsers(employee, customerRead, customerWrite),
  'issue.subscribe': consoleUsers(employee, customerRead, customerWrite),
  'issueMessage.listVisible': consoleUsers(employee, customerRead, customerWrite),
  'issueMessage.createVisible': consoleUsers(employee, customerRead, customerWrite),
  // Files: anyone signed in may read what they may see; the upload limit by role decides who may upload (customers: 0).
  'file.upload': consoleUsers(employee, customerRead, customerWrite),
  'file.read': consoleUsers(employee, customerRead, customerWrite),
  // On-call and telephony: only Ops changes the on-call ops user; Twilio's requests are checked by their signature.
  'onCall.read': consoleUsers(employee),
  'onCall.update': consoleUsers(ops),
  'onCall.grafana': consoleUsers(employee),
  'telephony.call': anyone,

  // Billing legal entities (console.md section 6): staff read; Ops, Developer and Sales write.
  'billingLegalEntity.list': consoleUsers(employee),
  'billingLegalEntity.read': consoleUsers(employee),
  'billingLegalEntity.create': consoleUsers(ops, developer, sales),
  'billingLegalEntity.update': consoleUsers(ops, developer, sales),
  'billingLegalEntity.delete': consoleUsers(ops, developer, sales),
  // Billing charges (console.md section 6): staff read, Ops and Developer write; the monthly forecast is a read.
  'billingCharge.list': consoleUsers(employee),
  'billingCharge.read': consoleUsers(employee),
  'billingCharge.create': staffWriters,
  'billingCharge.delete': staffWriters,
  'billingCharge.refund': staffWriters,
  'billingForecast.read': consoleUsers(employee),

  // The public steering API and developer access (api.md section 6).
  'steering.listDevices': apiKeys(customerWrite),
  'steering.setSchedule': apiKeys(customerWrite),
  'steering.setParameters': apiKeys(customerWrite),
  'device.developerChannel': apiKeys(developer),
} as const satisfies Record<string, AccessRule>;

export type Operation = keyof typeof accessRules;

/** Why a caller may not do any of some operations, or null when it may. */
export type AccessVerdict = null | { key: 'unauthorized' } | { key: 'forbidden'; details: { required: Right[] } | { reason: string } };

/**
 * Whether a caller of `kind` holding `held` may do any of `operations`. Nobody is
 * unauthorized; someone lacking every right the operations name is forbidden with those
 * rights in `required`; someone with a right but of the wrong kind is forbidden with the
 * kind the operations need as the reason. `kind` null is Gridport itself (no kind check).
 */
export function accessVerdict(kind: CallerKind | 'anonymous' | null, held: readonly Right[], operations: readonly Operation[]): AccessVerdict {
  const rules: AccessRule[] = operations.map((operation) => accessRules[operation]);
  const restricted = rules.flatMap((rule) => (rule.public ? [] : [rule]));
  if (restricted.length < rules.length) {
    return null;
  }
  if (kind === 'anonymous') {
    return { key: 'unauthorized' };
  }
  if (restricted.some((rule) => hasAnyRight(held, rule.rights) && (kind === null || rule.callers.includes(kind)))) {
    return null;
  }
  const withRight = restricted.filter((rule) => hasAnyRight(held, rule.rights));
  if (withRight.length === 0) {
    return { key: 'forbidden', details: { required: [...new Set(restricted.flatMap((rule) => rule.rights))] } };
  }
  const needsSession = withRight.some((rule) => rule.callers.includes('user'));
  return { key: 'forbidden', details: { reason: needsSession ? 'this route needs a console session' : 'this route needs an API key' } };
}
