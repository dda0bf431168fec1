import { useQuery } from '@apollo/client/react';
import { useEffect } from 'react';
import { Link, Outlet, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { apiErrorOfApollo } from '../../../api/apollo';
import { LoadFailed } from '../../../components/LoadFailed';
import { ObjectFrame } from '../../../components/ObjectFrame';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { AdminOrganizationDocument } from './OrganizationFrame.generated';
import { useMessages, type MessageKey } from '../../../i18n/messages';
import { organizationTypeOf } from './organization-form';

/**
 * An organisation in the admin area (/admin/organizations/{hashId}/...): its name and type above
 * the tabs general, users, partnerships, api-keys and billing, and the tab shown. An unknown hash
 * id says so instead of loading forever.
 */
export function OrganizationFrame() {
  const t = useMessages();
  const showError = useApolloErrorSnackbar();
  const { hashId = '' } = useParams();
  const { data, error, refetch } = useQuery(AdminOrganizationDocument, { variables: { hashId } });
  const notFound = apiErrorOfApollo(error)?.is('not_found') === true;
  useEffect(() => {
    // A missing organisation has its own state below; other failures their snackbar too.
    if (error !== undefined && !notFound) {
      showError(error);
    }
  }, [error, notFound, showError]);

  const organization = data?.organization;
  if (organization === undefined) {
    if (error === undefined) {
      return <p>{t('organizations.loading')}</p>;
    }
    const backToList = <Link to="/admin/organizations">{t('organizations.backToList')}</Link>;
    if (!notFound) {
      return (
        <LoadFailed message={t('organizations.failed')} onRetry={() => void refetch()}>
          {backToList}
        </LoadFailed>
      );
    }
    return (
      <State role="alert">
        <h1>{t('organizations.notFound.title')}</h1>
        <p>{t('organizations.notFound', { hashId })}</p>
        {backToList}
      </State>
    );
  }

  const type = organizationTypeOf(organization.type);
  const base = `/admin/organizations/${organization.hashId}`;
  return (
    <ObjectFrame
      title={organization.name}
      subtitle={organization.isProvider || type === null ? t('organizations.type.provider') : t(`organizations.type.${type}` as MessageKey)}
      tabs={[
        { to: `${base}/general`, label: t('organizations.tab.general') },
        { to: `${base}/users`, label: t('organizations.tab.users') },
        { to: `${base}/partnerships`, label: t('organizations.tab.partnerships') },
        { to: `${base}/api-keys`, label: t('organizations.tab.apiKeys') },
        { to: `${base}/billing`, label: t('organizations.tab.billing') },
      ]}
    >
      <Outlet />
    </ObjectFrame>
  );
}

const State = styled.div`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 8px;
  padding: 24px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;
  h1,
  p {
    margin: 0;
  }
`;
