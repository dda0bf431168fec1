import { accessMessages } from '../../areas/customer/access/messages';
import { customerDestinationMessages } from '../../areas/customer/access/destination-messages';
import { partnershipListMessages } from '../../areas/customer/access/partnership-messages';
import { customerDeviceMessages } from '../../areas/customer/devices/messages';
import { customerIssueMessages } from '../../areas/customer/issues/messages';
import { settingsMessages } from '../../areas/customer/settings/messages';
/** Texts of the customer area; the device screens add theirs here. */
export const customerMessages = {
  'nav.teleports': 'Teleports',
  'nav.issues': 'Issues',
  'nav.accessManagement': 'Access management',
  'nav.settings': 'Settings',
  'teleports.title': 'Teleports',
  'issues.title': 'Issues',
  'accessManagement.title': 'Access management',
  'accessManagement.myOrganization': 'My organisation',
  'accessManagement.myPartnerships': 'My partnerships',
  'accessManagement.acceptedPartnerships': 'Accepted partnerships',
  'settings.title': 'Settings',
  comingSoon: 'This screen is being built.',
  ...customerDeviceMessages,
  ...customerIssueMessages,
  ...accessMessages,
  ...partnershipListMessages,
  ...customerDestinationMessages,
  ...settingsMessages,
} as const;

export type CustomerMessageKey = keyof typeof customerMessages;
