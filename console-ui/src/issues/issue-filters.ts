import type { IssueOwner, IssueSort, IssueStatus } from '../../../contracts/issue';
import type { IssueOwner as IssueOwnerEnum, IssueSort as IssueSortEnum, IssueStatus as IssueStatusEnum } from '../graphql/schema-types';

/** The value of an address parameter when it is one of `values` (a filter of the address); undefined otherwise. */
export function paramOf<V extends string>(values: readonly V[], value: string | null): V | undefined {
  return values.find((known) => known === value);
}

/** Issues a list page asks for. */
export const issuePageSize = 50;

/** The status filter as it reads in the address (contracts/issue.ts) and in GraphQL. */
export const issueStatusEnum = { open: 'OPEN', resolved: 'RESOLVED' } as const satisfies Record<IssueStatus, IssueStatusEnum>;

/** The admin owner filter and sorts as they read in the address and in GraphQL. */
export const issueOwnerEnum = { gridport: 'GRIDPORT', customer: 'CUSTOMER' } as const satisfies Record<IssueOwner, IssueOwnerEnum>;
export const issueSortEnum = {
  createdAtDesc: 'CREATED_AT_DESC',
  createdAtAsc: 'CREATED_AT_ASC',
  nextActivityDueAt: 'NEXT_ACTIVITY_DUE_AT',
} as const satisfies Record<IssueSort, IssueSortEnum>;
