import { deviceMessages } from '../../../devices/messages';

/** Texts of the customer device screens. */
export const customerDeviceMessages = {
  ...deviceMessages,
  'device.list.count': '{count} teleports',
  'device.status.all': 'All ({count})',
  'device.status.operational': 'Operational ({count})',
  'device.status.operationalWithIssues': 'With issues ({count})',
  'device.status.nonOperational': 'Not operational ({count})',
  'device.status.label': 'Status',
} as const;
