import { useMutation } from '@apollo/client/react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { destinationKinds, type DestinationKind } from '../../../../../contracts/forwarding';
import { Button } from '../../../components/Button';
import { Panel } from '../../../components/ObjectFrame';
import { kindText } from '../../../forwarding/destination-health';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { OrganizationPicker, type PickedOrganization } from '../organizations/OrganizationPicker';
import { destinationCreateInput, destinationFormValues } from './destination-form';
import { DestinationForm } from './DestinationForm';
import { CreateMessageDestinationDocument } from './MessageDestinationAddScreen.generated';

const kindOf = (value: string | null): DestinationKind | null => destinationKinds.find((kind) => kind === value) ?? null;

/**
 * A new message destination (/admin/message-destinations/add): first the kind (kept in the
 * address, ?type=http, so a link opens its form), then the form of that kind.
 */
export function MessageDestinationAddScreen() {
  const t = useMessages();
  const [search, setSearch] = useSearchParams();
  const kind = kindOf(search.get('type'));
  return (
    <section>
      <h1>{kind === null ? t('messageDestination.add.title') : t('messageDestination.add.kindTitle', { kind: kindText(t, kind) })}</h1>
      {kind === null ? (
        <KindChoice />
      ) : (
        <>
          <p>
            <Button variant="text" onClick={() => setSearch(new URLSearchParams())}>
              {t('messageDestination.add.otherKind')}
            </Button>
          </p>
          <Panel>
            <NewDestinationForm key={kind} kind={kind} />
          </Panel>
        </>
      )}
    </section>
  );
}

/** The twelve kinds, each a link to its form. */
function KindChoice() {
  const t = useMessages();
  return (
    <Panel>
      <h2>{t('messageDestination.add.pickKind')}</h2>
      <Kinds aria-label={t('messageDestination.add.kinds')}>
        {destinationKinds.map((kind) => (
          <li key={kind}>
            <Link to={`?type=${kind}`}>{kindText(t, kind)}</Link>
            <span>{t(`messageDestination.kindHelp.${kind}` as MessageKey)}</span>
          </li>
        ))}
      </Kinds>
    </Panel>
  );
}

function NewDestinationForm({ kind }: { kind: DestinationKind }) {
  const t = useMessages();
  const navigate = useNavigate();
  const { may } = usePermissions();
  const [create] = useMutation(CreateMessageDestinationDocument);
  const [organization, setOrganization] = useState<PickedOrganization | null>(null);
  const initialValues = useMemo(() => destinationFormValues(kind), [kind]);
  return (
    <DestinationForm
      kind={kind}
      initialValues={initialValues}
      secretsSet={null}
      leavesOnSuccess
      organization={(choose, error) => (
        <OrganizationPicker
          label={t('messageDestination.field.organization')}
          value={organization}
          error={error}
          onChange={(chosen) => {
            setOrganization(chosen);
            choose(chosen.hashId);
          }}
        />
      )}
      onSubmit={async (values) => {
        const { data } = await create({ variables: { input: destinationCreateInput(kind, values) } });
        if (data !== undefined) {
          void navigate(`/admin/message-destinations/${data.createMessageDestination.hashId}/general`);
        }
      }}
      submitText={t('messageDestination.add.submit')}
      permitted={may('messageDestination.create')}
      actions={
        <Button variant="text" onClick={() => void navigate('/admin/message-destinations')}>
          {t('action.cancel')}
        </Button>
      }
    />
  );
}

const Kinds = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  gap: 10px;
  li {
    display: flex;
    flex-direction: column;
    gap: 4px;
    padding: 10px 12px;
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius}px;
  }
  a {
    font-weight: ${({ theme }) => theme.fontWeights.medium};
  }
  span {
    font-size: 13px;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;
