import { useQuery } from '@apollo/client/react';
import { Link, useParams } from 'react-router-dom';
import { issueCustomerMessageCreateSchema } from '../../../../../contracts/issue';
import { Button } from '../../../components/Button';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { Panel } from '../../../devices/DeviceFrame';
import { CustomerIssueDocument } from './IssueScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { IssueFacts } from '../../../issues/IssueFacts';
import { IssueHeader } from '../../../issues/IssueHeader';
import { IssueMessageForm, type MessageDraft } from '../../../issues/IssueMessageForm';
import { IssueTimelinePanel } from '../../../issues/IssueTimelinePanel';
import { useAddIssueMessage } from '../../../issues/useAddIssueMessage';
import { useUserDirectory } from '../../../issues/useUserNames';
import { useSession } from '../../../session/useSession';
import { useSubscribeToIssue } from './useSubscribeToIssue';
import { useUnsubscribeFromIssue } from './useUnsubscribeFromIssue';

const emptyMessage: MessageDraft = { message: '', fileIdentifiers: [] };

/** An issue in the customer area (/issues/{hashId}): its facts, the live timeline, a message to post, and subscribing. */
export function IssueScreen() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { profile } = useSession();
  const userDirectory = useUserDirectory();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { data, error, refetch } = useQuery(CustomerIssueDocument, { variables: { hashId } });
  useQueryErrorSnackbar(error);
  const addMessage = useAddIssueMessage();
  const [subscribe, subscribing] = useSubscribeToIssue();
  const [unsubscribe, unsubscribing] = useUnsubscribeFromIssue();
  const issue = data?.issue;
  if (issue === undefined) {
    return <p>{t('issue.loading')}</p>;
  }
  const subscribed = issue.subscribers.some((user) => user.hashId === profile?.user.hashId);

  const toggleSubscription = async () => {
    try {
      await (subscribed ? unsubscribe(hashId) : subscribe(hashId));
      await refetch();
      snackbar.show({ tone: 'success', message: t(subscribed ? 'issue.unsubscribed' : 'issue.subscribed') });
    } catch (failure) {
      showError(failure);
    }
  };
  const send = async (values: MessageDraft) => {
    try {
      await addMessage({ issueHashId: hashId, message: values.message, fileIdentifiers: values.fileIdentifiers });
      snackbar.show({ tone: 'success', message: t('issue.message.sent') });
    } catch (failure) {
      showError(failure);
      throw failure;
    }
  };

  return (
    <section>
      <Link to="/issues">{t('issue.back')}</Link>
      <IssueHeader title={issue.title} status={issue.status}>
        <Button variant="text" loading={subscribing.loading || unsubscribing.loading} onClick={() => void toggleSubscription()}>
          {t(subscribed ? 'issue.unsubscribe' : 'issue.subscribe')}
        </Button>
      </IssueHeader>
      <Panel>
        <IssueFacts issue={issue} deviceLink={(device) => `/teleports/${device}/general`} />
      </Panel>
      <IssueTimelinePanel hashId={hashId} onAdded={() => void refetch()} userDirectory={userDirectory}>
        <IssueMessageForm initialValues={emptyMessage} validationSchema={issueCustomerMessageCreateSchema} onSend={send} />
      </IssueTimelinePanel>
    </section>
  );
}
