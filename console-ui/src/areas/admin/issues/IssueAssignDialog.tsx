import { issueUpdateSchema } from '../../../../../contracts/issue';
import { emailSchema } from '../../../../../contracts/user';
import { FormDialog } from '../../../components/FormDialog';
import { TextField } from '../../../components/TextField';
import type { IssueUpdateInput } from './useUpdateIssue.generated';
import { useMessages } from '../../../i18n/messages';
import { UserPicker } from './UserPicker';

interface Values {
  assignedUserHashId: string | null;
  assignedEmail: string;
}

/** The assignee rules of updateIssue; an empty email is no email. */
const schema = issueUpdateSchema.pick(['assignedUserHashId']).shape({
  assignedEmail: emailSchema.transform((value: string) => (value === '' ? undefined : value)).optional(),
});

/** The assignee chosen: a user, else an email, else nobody; only what changes goes to updateIssue. */
export function assignmentOf(values: Values, before: { assignedUserHashId: string | null; assignedEmail: string | null }): IssueUpdateInput {
  const email = values.assignedEmail.trim();
  const after =
    values.assignedUserHashId !== null
      ? { assignedUserHashId: values.assignedUserHashId, assignedEmail: null }
      : { assignedUserHashId: null, assignedEmail: email === '' ? null : email };
  const input: IssueUpdateInput = {};
  if (after.assignedUserHashId !== before.assignedUserHashId) {
    input.assignedUserHashId = after.assignedUserHashId;
  }
  if (after.assignedEmail !== before.assignedEmail) {
    input.assignedEmail = after.assignedEmail;
  }
  return input;
}

/** Assigns an issue to a user or an email address (an internal issue only to the provider's: internal_issue_external_assignee). */
export function IssueAssignDialog({
  assignedUserHashId,
  assignedEmail,
  onSave,
  onClose,
}: {
  assignedUserHashId: string | null;
  assignedEmail: string | null;
  onSave: (input: IssueUpdateInput) => Promise<void>;
  onClose: () => void;
}) {
  const t = useMessages();
  return (
    <FormDialog<Values>
      title={t('issue.assign.title')}
      initialValues={{ assignedUserHashId, assignedEmail: assignedEmail ?? '' }}
      validationSchema={schema}
      submitText={t('issue.assign')}
      onSubmit={(values) => onSave(assignmentOf(values, { assignedUserHashId, assignedEmail }))}
      onClose={onClose}
    >
      {() => (
        <>
          <p>{t('issue.assign.help')}</p>
          <UserPicker name="assignedUserHashId" label={t('issue.assign.user')} noneLabel={t('issue.unassigned')} />
          <TextField name="assignedEmail" type="email" label={t('issue.assign.email')} maxLength={255} />
        </>
      )}
    </FormDialog>
  );
}
