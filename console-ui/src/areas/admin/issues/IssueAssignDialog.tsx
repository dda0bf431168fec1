import { issueUpdateSchema } from '../../../../../contracts/issue';
import { emailSchema } from '../../../../../contracts/user';
import { FormDialog } from '../../../components/FormDialog';
import { TextField } from '../../../components/TextField';
import type { IssueUpdateInput } from '../../../graphql/operations';
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

/** The assignee as updateIssue takes it: a user, else an email, else nobody. */
export function assignmentOf(values: Values): IssueUpdateInput {
  if (values.assignedUserHashId !== null) {
    return { assignedUserHashId: values.assignedUserHashId, assignedEmail: null };
  }
  const email = values.assignedEmail.trim();
  return { assignedUserHashId: null, assignedEmail: email === '' ? null : email };
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
      onSubmit={(values) => onSave(assignmentOf(values))}
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
