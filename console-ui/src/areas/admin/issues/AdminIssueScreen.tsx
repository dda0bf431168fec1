import { useQuery } from '@apollo/client/react';
import { useFormikContext } from 'formik';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import styled from 'styled-components';
import * as yup from 'yup';
import { issueLimits, issueMessageCreateSchema, issueMessageUpdateSchema } from '../../../../../contracts/issue';
import { emailSchema } from '../../../../../contracts/user';
import { apiErrorOfApollo } from '../../../api/apollo';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { FormDialog } from '../../../components/FormDialog';
import { useSnackbar } from '../../../components/Snackbars';
import { CheckboxField, TextAreaField, TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { Panel } from '../../../devices/DeviceFrame';
import { AdminIssueDocument } from './AdminIssueScreen.generated';
import type { IssueUpdateInput } from './useUpdateIssue.generated';
import { useMessages } from '../../../i18n/messages';
import { up } from '../../../theme/theme';
import { IssueFacts } from '../../../issues/IssueFacts';
import { IssueHeader } from '../../../issues/IssueHeader';
import { IssueMessageForm, type MessageDraft } from '../../../issues/IssueMessageForm';
import type { IssueTimelineMessage } from '../../../issues/IssueTimeline';
import { IssueTimelinePanel } from '../../../issues/IssueTimelinePanel';
import { useAddIssueMessage } from '../../../issues/useAddIssueMessage';
import { useUserDirectory } from '../../../issues/useUserNames';
import { adminLinkTo } from '../links';
import { IssueAssignDialog } from './IssueAssignDialog';
import { IssueEditDialog } from './IssueEditDialog';
import { IssueSubscribers } from './IssueSubscribers';
import { useReopenIssue } from './useReopenIssue';
import { useResolveIssue } from './useResolveIssue';
import { useUpdateIssue } from './useUpdateIssue';
import { useUpdateIssueMessage } from './useUpdateIssueMessage';

interface StaffDraft extends MessageDraft {
  isInternal: boolean;
  /** Addresses, comma-separated. */
  to: string;
  cc: string;
}

const emptyDraft: StaffDraft = { message: '', fileIdentifiers: [], isInternal: true, to: '', cc: '' };

/** The addresses of a comma-separated field. */
export function addressesOf(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

/** Recipients as the form holds them (text), checked as contracts/issue.ts checks them. */
const addresses = () =>
  yup
    .array(emailSchema.required())
    .max(issueLimits.recipients)
    .transform((value: unknown, original: unknown) => (typeof original === 'string' ? addressesOf(original) : value))
    .default([]);
/** The rules of a staff message (contracts/issue.ts). */
const staffMessageSchema = issueMessageCreateSchema.pick(['message', 'isInternal', 'fileIdentifiers']).shape({ to: addresses(), cc: addresses() });

/** Who a message is mailed to: only a message that is not internal is mailed. */
function MailFields() {
  const t = useMessages();
  const { values } = useFormikContext<StaffDraft>();
  if (values.isInternal) {
    return null;
  }
  return (
    <>
      <TextField name="to" label={t('issue.message.toField')} />
      <TextField name="cc" label={t('issue.message.ccField')} />
    </>
  );
}

/** Resolve or reopen's question: whether to do it silently (no timeline message, nobody told). */
function SilentChoice({ text, onChange }: { text: string; onChange: (silent: boolean) => void }) {
  const [silent, setSilent] = useState(false);
  return (
    <label>
      <input
        type="checkbox"
        checked={silent}
        onChange={(event) => {
          setSilent(event.target.checked);
          onChange(event.target.checked);
        }}
      />{' '}
      {text}
    </label>
  );
}

/** An issue in the admin area (/admin/issues/{hashId}): assign, resolve and reopen, edit, subscribers, internal messages. */
export function AdminIssueScreen() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const userDirectory = useUserDirectory();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { data, error, refetch } = useQuery(AdminIssueDocument, { variables: { hashId } });
  useQueryErrorSnackbar(error);
  const update = useUpdateIssue();
  const resolve = useResolveIssue();
  const reopen = useReopenIssue();
  const addMessage = useAddIssueMessage();
  const updateMessage = useUpdateIssueMessage();
  const [dialog, setDialog] = useState<'edit' | 'assign' | null>(null);
  const [editing, setEditing] = useState<IssueTimelineMessage | null>(null);
  const [edits, setEdits] = useState(0);
  const issue = data?.issue;
  if (issue === undefined) {
    return <p>{t('issue.loading')}</p>;
  }
  const open = issue.status === 'OPEN';

  const save = (notice: 'issue.edit.saved' | 'issue.assign.saved') => async (input: IssueUpdateInput) => {
    try {
      await update(hashId, input);
    } catch (failure) {
      showError(failure);
      throw failure;
    }
    await refetch();
    snackbar.show({ tone: 'success', message: t(notice) });
  };

  const changeState = () => {
    let silent = false;
    void confirm({
      type: open ? 'primary' : 'warning',
      title: t(open ? 'issue.resolve.title' : 'issue.reopen.title'),
      message: (
        <>
          <p>{t(open ? 'issue.resolve.message' : 'issue.reopen.message')}</p>
          <SilentChoice text={t('issue.silent')} onChange={(value) => (silent = value)} />
        </>
      ),
      confirmText: t(open ? 'issue.resolve' : 'issue.reopen'),
      waitForConfirm: true,
      onConfirm: async () => {
        try {
          await (open ? resolve(hashId, silent) : reopen(hashId, silent));
        } catch (failure) {
          showError(failure);
          // Someone else resolved or reopened it meanwhile: show it as it is now, nothing to try again.
          const refused = apiErrorOfApollo(failure);
          if (refused?.is('already_resolved') || refused?.is('already_open')) {
            await refetch();
            return;
          }
          throw failure;
        }
        await refetch();
        snackbar.show({ tone: 'success', message: t(open ? 'issue.resolved' : 'issue.reopened') });
      },
    });
  };

  const send = async (values: StaffDraft) => {
    try {
      await addMessage({
        issueHashId: hashId,
        message: values.message,
        isInternal: values.isInternal,
        // An internal message is never mailed.
        to: values.isInternal ? [] : addressesOf(values.to),
        cc: values.isInternal ? [] : addressesOf(values.cc),
        fileIdentifiers: values.fileIdentifiers,
      });
      snackbar.show({ tone: 'success', message: t('issue.message.sent') });
    } catch (failure) {
      showError(failure);
      throw failure;
    }
  };

  const yesNo = (value: boolean) => t(value ? 'issue.yes' : 'issue.no');
  return (
    <section>
      <Link to="/admin/issues">{t('issue.back')}</Link>
      <IssueHeader title={issue.title} status={issue.status}>
        <Button variant="text" onClick={() => setDialog('edit')}>
          {t('issue.edit')}
        </Button>
        <Button variant="text" onClick={() => setDialog('assign')}>
          {t('issue.assign')}
        </Button>
        <Button variant={open ? 'primary' : 'warning'} onClick={changeState}>
          {t(open ? 'issue.resolve' : 'issue.reopen')}
        </Button>
      </IssueHeader>
      <Columns>
        <div>
          <Panel>
            <IssueFacts issue={issue} deviceLink={(device) => `/admin/devices/${device}/timeline`}>
              <dt>{t('issue.source')}</dt>
              <dd>{issue.source}</dd>
              <dt>{t('issue.nextActivityDueAt')}</dt>
              <dd data-testid="issue-next-activity">
                {issue.nextActivityDueAt === null ? t('issue.none') : new Date(issue.nextActivityDueAt).toLocaleString()}
              </dd>
              <dt>{t('issue.internal')}</dt>
              <dd>{yesNo(issue.internal)}</dd>
              <dt>{t('issue.gridportIssueOwner')}</dt>
              <dd>{yesNo(issue.gridportIssueOwner)}</dd>
              <dt>{t('issue.autoClose')}</dt>
              <dd>{yesNo(issue.autoClose)}</dd>
              <dt>{t('issue.canReopen')}</dt>
              <dd>{yesNo(issue.canReopen)}</dd>
              {issue.nonUserParticipants.length > 0 && (
                <>
                  <dt>{t('issue.participants')}</dt>
                  <dd>{issue.nonUserParticipants.map((participant) => participant.name ?? participant.email).join(', ')}</dd>
                </>
              )}
            </IssueFacts>
          </Panel>
          <IssueSubscribers issueHashId={hashId} subscribers={issue.subscribers} onChanged={refetch} />
        </div>
        <IssueTimelinePanel
          hashId={hashId}
          onAdded={() => void refetch()}
          generation={edits}
          linkTo={adminLinkTo}
          userDirectory={userDirectory}
          messageActions={(message) =>
            message.isInternal ? (
              <Button variant="text" onClick={() => setEditing(message)}>
                {t('issue.message.edit')}
              </Button>
            ) : null
          }
        >
          <IssueMessageForm<StaffDraft> initialValues={emptyDraft} validationSchema={staffMessageSchema} onSend={send}>
            <CheckboxField name="isInternal" label={t('issue.message.internal')} />
            <MailFields />
          </IssueMessageForm>
        </IssueTimelinePanel>
      </Columns>

      {dialog === 'edit' && <IssueEditDialog issue={issue} onSave={save('issue.edit.saved')} onClose={() => setDialog(null)} />}
      {dialog === 'assign' && (
        <IssueAssignDialog
          assignedUserHashId={issue.assignedUser?.hashId ?? null}
          assignedEmail={issue.assignedEmail}
          onSave={save('issue.assign.saved')}
          onClose={() => setDialog(null)}
        />
      )}
      {editing !== null && (
        <FormDialog<{ message: string }>
          title={t('issue.message.editTitle')}
          initialValues={{ message: editing.message }}
          validationSchema={issueMessageUpdateSchema}
          onClose={() => setEditing(null)}
          onSubmit={async (values) => {
            try {
              await updateMessage(editing.hashId, values.message);
            } catch (failure) {
              showError(failure);
              throw failure;
            }
            setEdits((count) => count + 1);
            snackbar.show({ tone: 'success', message: t('issue.message.saved') });
          }}
        >
          {() => <TextAreaField name="message" label={t('issue.message.label')} rows={8} />}
        </FormDialog>
      )}
    </section>
  );
}

/** The facts and subscribers beside the timeline on a wide screen. */
const Columns = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 0 16px;
  ${up('lg')} {
    grid-template-columns: minmax(0, 2fr) minmax(0, 3fr);
    align-items: start;
  }
`;
