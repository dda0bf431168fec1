import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { Button } from '../../../components/Button';
import type { PartnershipKind, PartnershipList_PartnershipFragment } from './PartnershipList.generated';
import { useMessages } from '../../../i18n/messages';
import { usePartnerships } from './usePartnerships';
import { ShortTable } from '../../../lists/ShortList';

/**
 * The partnerships where the user's organisation is the owner (OWN: who sees our teleports)
 * or the partner (ACCEPTED: whose teleports we see): the other organisation, the role and the
 * teleports shared, all or the listed ones.
 */
export function PartnershipList({ kind }: { kind: PartnershipKind }) {
  const t = useMessages();
  const { rows, next, loading, loadMore } = usePartnerships(kind);
  const own = kind === 'OWN';
  return (
    <>
      <p>{own ? t('access.partnerships.own.help') : t('access.partnerships.accepted.help')}</p>
      <ShortTable aria-label={own ? t('accessManagement.myPartnerships') : t('accessManagement.acceptedPartnerships')}>
        <thead>
          <tr>
            <th scope="col">{own ? t('access.partnerships.partner') : t('access.partnerships.owner')}</th>
            <th scope="col">{t('access.partnerships.role')}</th>
            <th scope="col">{t('access.partnerships.devices')}</th>
            <th scope="col">{t('access.partnerships.description')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.hashId}>
              <td>{own ? row.partner.name : row.owner.name}</td>
              <td>{t(`access.role.${row.role}`)}</td>
              <td>
                <SharedDevices partnership={row} />
              </td>
              <td>{row.description}</td>
            </tr>
          ))}
        </tbody>
      </ShortTable>
      {rows.length === 0 && <p>{loading ? t('access.loading') : t('access.partnerships.empty')}</p>}
      {next !== null && (
        <Button variant="text" loading={loading} onClick={loadMore}>
          {t('access.partnerships.more')}
        </Button>
      )}
    </>
  );
}

/** All teleports, or the listed ones by name as links to their screens (both sides may open them). */
function SharedDevices({ partnership }: { partnership: PartnershipList_PartnershipFragment }) {
  const t = useMessages();
  if (partnership.allDevices) {
    return <>{t('access.partnerships.allDevices')}</>;
  }
  return (
    <details>
      <summary>{t('access.partnerships.someDevices', { count: partnership.deviceCount })}</summary>
      <DeviceLinks>
        {partnership.devices.map((device) => (
          <li key={device.hashId}>
            <Link to={`/teleports/${device.hashId}/general`}>{device.name}</Link>
          </li>
        ))}
      </DeviceLinks>
    </details>
  );
}

const DeviceLinks = styled.ul`
  margin: 4px 0 0;
  padding-left: 18px;
`;
