import { useQuery } from '@apollo/client/react';
import { useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { MyOrganizationDocument } from './MyOrganization.generated';
import { DeviceCountsDocument } from '../devices/DeviceListScreen.generated';
import { useMessages } from '../../../i18n/messages';
import { Facts } from './Facts';

/** The my-organization tab: the user's organisation, what the user may do there, and the teleports the user may see. */
export function MyOrganization() {
  const t = useMessages();
  const me = useQuery(MyOrganizationDocument, { fetchPolicy: 'cache-and-network' });
  const counts = useQuery(DeviceCountsDocument, { fetchPolicy: 'cache-and-network' });
  useQueryErrorSnackbar(me.error);
  useQueryErrorSnackbar(counts.error);

  const actor = me.data?.me;
  if (actor === undefined) {
    return <p>{t('access.loading')}</p>;
  }
  const organization = actor?.organization ?? null;
  if (actor === null || organization === null) {
    return <p>{t('access.organization.none')}</p>;
  }
  const canWrite = actor.rights.includes('CUSTOMER_WRITE');
  const total = counts.data?.deviceCount;
  return (
    <>
      <Facts>
        <dt>{t('access.organization.name')}</dt>
        <dd data-testid="organization-name">{organization.name}</dd>
        <dt>{t('access.organization.type')}</dt>
        <dd data-testid="organization-type">
          {organization.type === null ? t('access.organization.type.none') : t(`access.organization.type.${organization.type}`)}
        </dd>
      </Facts>
      <h3>{t('access.rights.title')}</h3>
      <ul data-testid="rights">
        {actor.rights.includes('CUSTOMER_READ') && <li>{t('access.rights.read')}</li>}
        <li>{canWrite ? t('access.rights.write') : t('access.rights.readOnly')}</li>
      </ul>
      {total !== undefined && (
        <p data-testid="visible-devices">
          {t('access.devices', { count: total.totalCount, operational: total.operationalCount, inactive: total.inactiveCount })}
        </p>
      )}
    </>
  );
}
