import { adminDeviceMessages } from '../../areas/admin/devices/messages';
import { adminIssueMessages } from '../../areas/admin/issues/messages';
/** Texts of the admin area; the device screens add theirs here. */
export const adminMessages = {
  'nav.devices': 'Devices',
  'nav.deviceGroups': 'Device groups',
  'nav.messageDestinations': 'Message destinations',
  'nav.organizations': 'Organisations',
  'nav.users': 'Users',
  'nav.userInvites': 'User invites',
  'nav.issues': 'Issues',
  'devices.title': 'Devices',
  'deviceGroups.title': 'Device groups',
  'messageDestinations.title': 'Message destinations',
  'organizations.title': 'Organisations',
  'users.title': 'Users',
  'userInvites.title': 'User invites',
  'issues.title': 'Issues',
  comingSoon: 'This screen is being built.',
  ...adminDeviceMessages,
  ...adminIssueMessages,
} as const;

export type AdminMessageKey = keyof typeof adminMessages;
