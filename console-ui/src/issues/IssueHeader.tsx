import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { IssueStatus } from '../graphql/schema-types';
import { IssueStatusBadge } from './IssueStatusBadge';

/** An issue screen's heading: the title, the state, and the area's actions (subscribe; assign, resolve). */
export function IssueHeader({ title, status, children }: { title: string; status: IssueStatus; children?: ReactNode }) {
  return (
    <Header>
      <h1>{title}</h1>
      <IssueStatusBadge status={status} />
      <Actions>{children}</Actions>
    </Header>
  );
}

const Header = styled.div`
  display: flex;
  align-items: baseline;
  flex-wrap: wrap;
  gap: 8px 16px;
  margin: 8px 0 12px;
  h1 {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin-left: auto;
`;
