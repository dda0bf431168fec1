import { useState } from 'react';
import styled from 'styled-components';
import * as yup from 'yup';
import { Button } from '../../../components/Button';
import { useConfirm } from '../../../components/ConfirmDialog';
import { FormDialog } from '../../../components/FormDialog';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { Panel } from '../../../devices/DeviceFrame';
import { useMessages } from '../../../i18n/messages';
import { useAddIssueSubscribers } from './useAddIssueSubscribers';
import { useRemoveIssueSubscribers } from './useRemoveIssueSubscribers';
import { UserPicker } from './UserPicker';

interface Subscriber {
  hashId: string;
  name: string;
  email: string;
}

const addSchema = yup.object({ userHashId: yup.string().required() });

/** An issue's subscribers: who is told of its messages; staff add and remove them. */
export function IssueSubscribers({
  issueHashId,
  subscribers,
  onChanged,
}: {
  issueHashId: string;
  subscribers: readonly Subscriber[];
  onChanged: () => Promise<unknown>;
}) {
  const t = useMessages();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const add = useAddIssueSubscribers();
  const remove = useRemoveIssueSubscribers();
  const [adding, setAdding] = useState(false);

  const askRemove = (user: Subscriber) =>
    void confirm({
      type: 'danger',
      title: t('issue.subscribers.removeTitle'),
      message: t('issue.subscribers.removeMessage', { name: user.name }),
      waitForConfirm: true,
      onConfirm: async () => {
        try {
          await remove(issueHashId, [user.hashId]);
        } catch (error) {
          showError(error);
          throw error;
        }
        await onChanged();
        snackbar.show({ tone: 'success', message: t('issue.subscribers.removed') });
      },
    });

  return (
    <Panel>
      <h2>{t('issue.subscribers')}</h2>
      {subscribers.length === 0 && <p>{t('issue.noSubscribers')}</p>}
      <List>
        {subscribers.map((user) => (
          <li key={user.hashId} data-testid="issue-subscriber">
            <span>
              {user.name} &lt;{user.email}&gt;
            </span>
            <Button variant="text" aria-label={t('issue.subscribers.remove', { name: user.name })} onClick={() => askRemove(user)}>
              ×
            </Button>
          </li>
        ))}
      </List>
      <Button variant="text" onClick={() => setAdding(true)}>
        {t('issue.subscribers.add')}
      </Button>
      {adding && (
        <FormDialog<{ userHashId: string | null }>
          title={t('issue.subscribers.add')}
          initialValues={{ userHashId: null }}
          validationSchema={addSchema}
          submitText={t('issue.subscribers.add')}
          onClose={() => setAdding(false)}
          onSubmit={async ({ userHashId }) => {
            try {
              await add(issueHashId, userHashId === null ? [] : [userHashId]);
            } catch (error) {
              showError(error);
              throw error;
            }
            await onChanged();
            snackbar.show({ tone: 'success', message: t('issue.subscribers.added') });
          }}
        >
          {() => <UserPicker name="userHashId" label={t('issue.assign.user')} />}
        </FormDialog>
      )}
    </Panel>
  );
}

const List = styled.ul`
  list-style: none;
  margin: 0 0 8px;
  padding: 0;
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
`;
