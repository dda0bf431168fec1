import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import styled from 'styled-components';
import * as yup from 'yup';
import { messageDestinationResumeSchema } from '../../../../../contracts/forwarding';
import { Button } from '../../../components/Button';
import { FormDialog } from '../../../components/FormDialog';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { durationText, lagReportsText, stateText, whenText } from '../../../forwarding/destination-health';
import { useMessages, type Translate } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { MessageDestinationHealthDocument, ResumeMessageDestinationDocument } from './DestinationHealthPanel.generated';

/** How often the page reads the health again: lag and counts move while it is open. */
export const healthPollSeconds = 3;

/**
 * A destination's delivery: its state, lag (reports and age of the oldest), delivered count,
 * last success and error, position and next attempt, read again every few seconds; resuming it
 * (from where it stopped, or replaying from a position) is the Developer's.
 */
export function DestinationHealthPanel({ hashId, name }: { hashId: string; name: string }) {
  const t = useMessages();
  const { may } = usePermissions();
  const [resuming, setResuming] = useState(false);
  const { data, error, refetch } = useQuery(MessageDestinationHealthDocument, {
    variables: { hashId },
    pollInterval: healthPollSeconds * 1000,
    fetchPolicy: 'cache-and-network',
    notifyOnNetworkStatusChange: false,
  });
  useQueryErrorSnackbar(error);
  const health = data?.messageDestination.health;

  return (
    <Panel aria-labelledby="destination-health">
      <Title>
        <h2 id="destination-health">{t('messageDestination.health.title')}</h2>
        <Button permitted={may('messageDestination.resume')} disabled={health === undefined} onClick={() => setResuming(true)}>
          {t('messageDestination.resume')}
        </Button>
      </Title>
      {health === undefined ? (
        <p>{t('loading')}</p>
      ) : (
        <Facts>
          <dt>{t('messageDestination.health.state')}</dt>
          <dd data-testid="health-state">{stateText(t, health)}</dd>
          <dt>{t('messageDestination.health.lagReports')}</dt>
          <dd data-testid="health-lag-reports">{lagReportsText(t, health)}</dd>
          <dt>{t('messageDestination.health.lagSeconds')}</dt>
          <dd data-testid="health-lag-seconds">{durationText(t, health.lagSeconds)}</dd>
          <dt>{t('messageDestination.health.delivered')}</dt>
          <dd data-testid="health-delivered">{health.deliveredCount}</dd>
          <dt>{t('messageDestination.health.lastSuccess')}</dt>
          <dd>{whenText(t, health.lastSuccessAt)}</dd>
          <dt>{t('messageDestination.health.lastError')}</dt>
          <dd data-testid="health-last-error">
            {health.lastError === null
              ? t('messageDestination.health.none')
              : t('messageDestination.health.lastErrorAt', { error: health.lastError, at: whenText(t, health.lastErrorAt) })}
          </dd>
          <dt>{t('messageDestination.health.position')}</dt>
          <dd data-testid="health-position">
            <code>{health.position}</code>
          </dd>
          <dt>{t('messageDestination.health.nextAttempt')}</dt>
          <dd>{health.nextAttemptAt === null ? t('messageDestination.health.none') : whenText(t, health.nextAttemptAt)}</dd>
        </Facts>
      )}
      <Note>{t('messageDestination.health.live', { seconds: healthPollSeconds })}</Note>
      {resuming && health !== undefined && (
        <ResumeDialog hashId={hashId} name={name} position={health.position} onClose={() => setResuming(false)} onResumed={() => void refetch()} />
      )}
    </Panel>
  );
}

interface ResumeValues {
  offset: string;
}

/** The offset as typed: empty, or a position resume takes (contracts messageDestinationResumeSchema). */
const resumeFormSchema = (t: Translate) =>
  yup.object({
    offset: yup
      .string()
      .trim()
      .matches(/^\d*$/, t('messageDestination.resume.offset.invalid'))
      .test(
        'position',
        t('messageDestination.resume.offset.invalid'),
        (value) => value === undefined || value === '' || messageDestinationResumeSchema.isValidSync({ offset: Number(value) }),
      ),
  });

/** Resume, with an optional offset explained: replay from this position. */
function ResumeDialog({
  hashId,
  name,
  position,
  onClose,
  onResumed,
}: {
  hashId: string;
  name: string;
  position: string;
  onClose: () => void;
  onResumed: () => void;
}) {
  const t = useMessages();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const [resume] = useMutation(ResumeMessageDestinationDocument);
  return (
    <FormDialog<ResumeValues>
      title={t('messageDestination.resume.title', { name })}
      initialValues={{ offset: '' }}
      validationSchema={resumeFormSchema(t)}
      onSubmit={async (values) => {
        const offset = values.offset.trim();
        try {
          await resume({ variables: { hashId, offset: offset === '' ? null : Number(offset) } });
        } catch (error) {
          showError(error);
          throw error;
        }
        snackbar.show({ tone: 'success', message: t('messageDestination.resume.done', { name }) });
        onResumed();
      }}
      onClose={onClose}
      submitText={t('messageDestination.resume.submit')}
    >
      {() => (
        <>
          <p>{t('messageDestination.resume.help', { position })}</p>
          <TextField name="offset" label={t('messageDestination.resume.offset')} inputMode="numeric" autoFocus />
        </>
      )}
    </FormDialog>
  );
}

const Title = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 6px 16px;
  margin: 0 0 8px;
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Note = styled.p`
  font-size: 12px;
  color: ${({ theme }) => theme.colors.textMuted};
`;
