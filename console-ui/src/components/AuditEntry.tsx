import type { AuditChangeType } from '../graphql/schema-types';
import type { AuditEntry_EntryFragment, AuditEntry_IssueEntryFragment } from './AuditEntry.generated';
import { useMessages, type MessageKey } from '../i18n/messages';
import { DiffList, type LinkTo } from './DiffList';
import { TimelineItem } from './TimelineItem';

/** The label of each change type (console.md section 3). */
export const changeTypeLabels: Record<AuditChangeType, MessageKey> = {
  CONTROLLER_CREATE: 'audit.changeType.CONTROLLER_CREATE',
  CONTROLLER_UPDATE: 'audit.changeType.CONTROLLER_UPDATE',
  CONTROLLER_DELETE: 'audit.changeType.CONTROLLER_DELETE',
  MESSAGE_FROM_DEVICE: 'audit.changeType.MESSAGE_FROM_DEVICE',
  CONTROLLER_DEVICE_SHIPPED: 'audit.changeType.CONTROLLER_DEVICE_SHIPPED',
  CONTROLLER_MESSAGE_TO_DEVICE: 'audit.changeType.CONTROLLER_MESSAGE_TO_DEVICE',
  CONTROLLER_USER_PASSWORD_RESET: 'audit.changeType.CONTROLLER_USER_PASSWORD_RESET',
  CONTROLLER_2FA_CHANGES: 'audit.changeType.CONTROLLER_2FA_CHANGES',
  DEVICE_GATEWAY_MONITORING: 'audit.changeType.DEVICE_GATEWAY_MONITORING',
  DEVICE_GATEWAY_MESSAGE_TO_DEVICE: 'audit.changeType.DEVICE_GATEWAY_MESSAGE_TO_DEVICE',
};

/** An audit entry in a timeline (of the audit log, or of an issue's timeline): its change type, the user (or what acted), the time, and its diff. */
export function AuditEntry({ entry, linkTo }: { entry: AuditEntry_EntryFragment | AuditEntry_IssueEntryFragment; linkTo?: LinkTo }) {
  const t = useMessages();
  return (
    <TimelineItem title={t(changeTypeLabels[entry.changeType])} by={entry.user?.name ?? entry.actorName} at={entry.createdAt} testId="audit-entry">
      <DiffList diff={entry.diff} linkTo={linkTo} />
    </TimelineItem>
  );
}
