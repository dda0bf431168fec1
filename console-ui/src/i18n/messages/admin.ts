import { adminDeviceMessages } from '../../areas/admin/devices/messages';
import { adminIssueMessages } from '../../areas/admin/issues/messages';
import { apiKeysMessages } from '../../areas/admin/api-keys/messages';
import { deviceGroupsMessages } from '../../areas/admin/device-groups/messages';
import { groupForwardingMessages } from '../../areas/admin/device-groups/forwarding-messages';
import { messageDestinationsMessages } from '../../areas/admin/message-destinations/messages';
import { forwardingMessages } from '../../forwarding/messages';
import { organizationsMessages } from '../../areas/admin/organizations/messages';
import { partnershipsMessages } from '../../areas/admin/partnerships/messages';
import { userInvitesMessages } from '../../areas/admin/user-invites/messages';
import { usersMessages } from '../../areas/admin/users/messages';
import { billingMessages } from '../../areas/admin/billing/messages';
/** Texts of the admin area; each screen folder's messages.ts adds its own here. */
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
  ...organizationsMessages,
  ...usersMessages,
  ...userInvitesMessages,
  ...partnershipsMessages,
  ...apiKeysMessages,
  ...deviceGroupsMessages,
  ...groupForwardingMessages,
  ...messageDestinationsMessages,
  ...forwardingMessages,
  ...billingMessages,
} as const;

export type AdminMessageKey = keyof typeof adminMessages;
