import { customerIssueAssignees, issueMessageSources, issueOwners, issueSorts, issueStatuses, issueTimelineItemKinds } from '../../../contracts/issue';
import { graphqlEnum } from '../../common/graphql-enum';

export const IssueStatusEnum = graphqlEnum('IssueStatus', issueStatuses, 'Open, or resolved (closedAt set).');

export const IssueSortEnum = graphqlEnum('IssueSort', issueSorts, 'Creation order either way, or the next activity due first (issues without one last).');

export const IssueOwnerEnum = graphqlEnum('IssueOwner', issueOwners, 'Who handles an issue: the provider (gridportIssueOwner) or the customer.');

export const CustomerIssueAssigneeEnum = graphqlEnum(
  'CustomerIssueAssignee',
  customerIssueAssignees,
  "The customer assignee filter: a user of the caller's organisation, the caller, the provider, or an email outside every organisation.",
);

export const IssueMessageSourceEnum = graphqlEnum('IssueMessageSource', issueMessageSources, 'Where a timeline message came from.');

export const IssueTimelineItemKindEnum = graphqlEnum('IssueTimelineItemKind', issueTimelineItemKinds, 'A message, or an audit log entry of the issue.');
