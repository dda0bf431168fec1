/** Issues, timeline items and alarms as the GraphQL API answers them, for the issue screens' tests. */

export function anIssue(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Issue',
    hashId: 'i1',
    title: 'Harbour battery disconnected',
    status: 'OPEN',
    source: 'monitoring',
    internal: false,
    autoClose: true,
    canReopen: true,
    gridportIssueOwner: true,
    nextActivityDueAt: null,
    device: { __typename: 'IssueReference', hashId: 'd7', name: 'Harbour battery' },
    organization: { __typename: 'IssueReference', hashId: 'o1', name: 'Solar Farms Ltd' },
    assignedUser: null,
    assignedEmail: null,
    nonUserParticipants: [],
    subscribers: [],
    alarms: [
      {
        __typename: 'Alarm',
        hashId: 'al1',
        monitor: 'device.disconnect.duration',
        assetIdentifier: null,
        recoveringSince: null,
        closedAt: null,
        createdAt: '2026-11-22T05:00:00.000Z',
      },
    ],
    messageCount: 1,
    closedAt: null,
    createdAt: '2026-11-22T05:00:00.000Z',
    ...overrides,
  };
}

export function aMessageItem(hashId: string, message: string, overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'IssueTimelineItem',
    kind: 'MESSAGE',
    cursor: `c-${hashId}`,
    createdAt: '2026-11-22T05:01:00.000Z',
    auditEntry: null,
    message: {
      __typename: 'IssueMessage',
      hashId,
      source: 'MONITORING',
      user: null,
      message,
      isInternal: false,
      to: [],
      cc: [],
      emailHeaders: null,
      files: [],
      createdAt: '2026-11-22T05:01:00.000Z',
      updatedAt: '2026-11-22T05:01:00.000Z',
      ...overrides,
    },
  };
}

export function anAuditItem(hashId: string, diff: unknown[], changeType = 'CONTROLLER_UPDATE') {
  return {
    __typename: 'IssueTimelineItem',
    kind: 'AUDIT',
    cursor: `c-${hashId}`,
    createdAt: '2026-11-22T05:02:00.000Z',
    message: null,
    auditEntry: {
      __typename: 'IssueAuditEntry',
      hashId,
      changeType,
      diff,
      user: { __typename: 'IssueReference', hashId: 'u9', name: 'Olivia Ops' },
      actorName: 'Olivia Ops',
      createdAt: '2026-11-22T05:02:00.000Z',
    },
  };
}
