import { issueMessages } from '../../../issues/messages';

/** Texts of the customer issue screens. */
export const customerIssueMessages = {
  ...issueMessages,
  'issue.filter.assignee': 'Assignee',
  'issue.filter.status': 'Status',
  'issue.assignee.all': 'Everyone',
  'issue.assignee.myOrganization': 'My organisation ({count})',
  'issue.assignee.me': 'Me ({count})',
  'issue.assignee.gridport': 'Gridport',
  'issue.assignee.external': 'External',
  'issue.status.open': 'Open ({count})',
  'issue.status.resolved': 'Resolved',
  'issue.back': 'All issues',
} as const;
