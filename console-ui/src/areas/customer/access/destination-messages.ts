import { forwardingMessages } from '../../../forwarding/messages';

/** Texts of the customer's read-only view of its organisation's message destinations (access management). */
export const customerDestinationMessages = {
  ...forwardingMessages,
  'accessManagement.messageDestinations': 'Data forwarding',
  'access.destinations.title': 'Message destinations',
  'access.destinations.help':
    'The systems your organisation’s teleport data is forwarded to, and how delivery stands. Gridport sets destinations up; ask support to add or change one.',
  'access.destinations.name': 'Name',
  'access.destinations.type': 'Type',
  'access.destinations.state': 'State',
  'access.destinations.lag': 'Lag',
  'access.destinations.lastSuccess': 'Last success',
  'access.destinations.empty': 'Your organisation’s data is not forwarded anywhere.',
  'access.destinations.failed': 'The message destinations could not be loaded.',
  'access.destinations.more': 'Only the first {count} are shown; the export holds them all.',
} as const;
