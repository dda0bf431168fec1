import { issueUpdateSchema } from '../../../../../contracts/issue';
import { plausibleDate } from '../../../../../contracts/dates';
import { FormDialog } from '../../../components/FormDialog';
import { CheckboxField, TextField } from '../../../components/TextField';
import type { IssueUpdateInput } from './useUpdateIssue.generated';
import { useMessages } from '../../../i18n/messages';

export interface IssueSettings {
  title: string;
  internal: boolean;
  autoClose: boolean;
  canReopen: boolean;
  gridportIssueOwner: boolean;
  nextActivityDueAt: string | null;
}

interface Values extends Omit<IssueSettings, 'nextActivityDueAt'> {
  /** A datetime-local value (the user's time), empty for none. */
  nextActivityDueAt: string;
}

/** The issue's fields as the form edits them; the date in the user's local time. */
function valuesOf(issue: IssueSettings): Values {
  const due = issue.nextActivityDueAt === null ? null : new Date(issue.nextActivityDueAt);
  const local = due === null ? '' : new Date(due.getTime() - due.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  return { ...issue, nextActivityDueAt: local };
}

/** Only what changed, as updateIssue takes it. */
export function issueChanges(before: Values, after: Values): IssueUpdateInput {
  const input: IssueUpdateInput = {};
  if (after.title.trim() !== before.title) {
    input.title = after.title.trim();
  }
  for (const flag of ['internal', 'autoClose', 'canReopen', 'gridportIssueOwner'] as const) {
    if (after[flag] !== before[flag]) {
      input[flag] = after[flag];
    }
  }
  if (after.nextActivityDueAt !== before.nextActivityDueAt) {
    input.nextActivityDueAt = after.nextActivityDueAt === '' ? null : new Date(after.nextActivityDueAt).toISOString();
  }
  return input;
}

/** The rules of updateIssue (contracts/issue.ts), with the date field as the form holds it. */
const schema = issueUpdateSchema.pick(['title', 'internal', 'autoClose', 'canReopen', 'gridportIssueOwner']).shape({
  nextActivityDueAt: plausibleDate()
    .nullable()
    .transform((value: Date | null, original: unknown) => (original === '' ? null : value)),
});

/** Edits an issue's title, flags (internal, autoClose, canReopen, gridportIssueOwner) and next activity due date. */
export function IssueEditDialog({ issue, onSave, onClose }: { issue: IssueSettings; onSave: (input: IssueUpdateInput) => Promise<void>; onClose: () => void }) {
  const t = useMessages();
  const initial = valuesOf(issue);
  return (
    <FormDialog<Values>
      title={t('issue.edit.title')}
      initialValues={initial}
      validationSchema={schema}
      onSubmit={(values) => onSave(issueChanges(initial, values))}
      onClose={onClose}
    >
      {() => (
        <>
          <TextField name="title" label={t('issue.edit.titleField')} maxLength={256} />
          <TextField name="nextActivityDueAt" type="datetime-local" label={t('issue.edit.nextActivityDueAt')} />
          <CheckboxField name="internal" label={t('issue.internal')} />
          <CheckboxField name="gridportIssueOwner" label={t('issue.gridportIssueOwner')} />
          <CheckboxField name="autoClose" label={t('issue.autoClose')} />
          <CheckboxField name="canReopen" label={t('issue.canReopen')} />
        </>
      )}
    </FormDialog>
  );
}
