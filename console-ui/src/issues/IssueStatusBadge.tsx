import styled from 'styled-components';
import type { IssueStatus } from '../graphql/schema-types';
import { useMessages } from '../i18n/messages';

/** An issue's state: open (it waits on someone) or resolved. */
export function IssueStatusBadge({ status }: { status: IssueStatus }) {
  const t = useMessages();
  return (
    <Badge $open={status === 'OPEN'} data-testid="issue-status">
      {t(status === 'OPEN' ? 'issue.status.OPEN' : 'issue.status.RESOLVED')}
    </Badge>
  );
}

const Badge = styled.span<{ $open: boolean }>`
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  color: ${({ theme, $open }) => ($open ? theme.colors.warning : theme.colors.success)};
`;
