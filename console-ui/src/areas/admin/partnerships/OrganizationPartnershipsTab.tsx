import { useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import styled from 'styled-components';
import { Button } from '../../../components/Button';
import { LoadFailed } from '../../../components/LoadFailed';
import { useConfirm } from '../../../components/ConfirmDialog';
import { Dialog } from '../../../components/Dialog';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { PartnershipsTabOrganizationDocument, type OrganizationPartnershipsTab_PartnershipFragment } from './OrganizationPartnershipsTab.generated';
import { useMessages } from '../../../i18n/messages';
import { downloadCsv, toCsv, type CsvColumn } from '../../../lists/csv';
import { usePermissions } from '../../../session/usePermissions';
import { ObjectAuditLog } from '../audit/ObjectAuditLog';
import { PartnershipDialog, type PartnershipDialogSubject } from './PartnershipDialog';
import { useDeletePartnership } from './useDeletePartnership';
import { useOrganizationPartnerships } from './useOrganizationPartnerships';
import { ShortTable } from '../../../lists/ShortList';

type Row = OrganizationPartnershipsTab_PartnershipFragment;

/**
 * The partnerships tab of an organisation (/admin/organizations/{hashId}/partnerships): every
 * partnership in which it is the owner or the partner, owner → partner, role, devices and
 * description; create, edit and delete as the rights allow; each partnership's history; CSV export.
 */
export function OrganizationPartnershipsTab() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { may } = usePermissions();
  const confirm = useConfirm();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const deletePartnership = useDeletePartnership();
  const partnerships = useOrganizationPartnerships(hashId);
  const organization = useQuery(PartnershipsTabOrganizationDocument, { variables: { hashId } });
  useQueryErrorSnackbar(organization.error);
  const [dialog, setDialog] = useState<PartnershipDialogSubject | null>(null);
  const [history, setHistory] = useState<Row | null>(null);
  useEffect(() => {
    if (partnerships.error !== null) {
      showError(partnerships.error);
    }
  }, [partnerships.error, showError]);

  const devicesText = useCallback(
    (row: Row) =>
      row.allDevices
        ? t('partnership.list.allDevices')
        : t('partnership.list.someDevices', { count: row.deviceCount, names: row.devices.map((device) => device.name).join(', ') }),
    [t],
  );
  const columns = useMemo<CsvColumn<Row>[]>(
    () => [
      { header: t('partnership.list.owner'), text: (row) => row.owner.name },
      { header: t('partnership.list.partner'), text: (row) => row.partner.name },
      { header: t('partnership.role'), text: (row) => t(`partnership.role.${row.role}`) },
      { header: t('partnership.list.devices'), text: devicesText },
      { header: t('partnership.description'), text: (row) => row.description },
    ],
    [t, devicesText],
  );

  const remove = (row: Row) =>
    void confirm({
      type: 'danger',
      title: t('partnership.delete.title'),
      message: t('partnership.delete.message', { owner: row.owner.name, partner: row.partner.name }),
      confirmText: t('partnership.delete.confirm'),
      waitForConfirm: true,
      onConfirm: async () => {
        try {
          await deletePartnership(row.hashId);
        } catch (error) {
          showError(error);
          throw error;
        }
        snackbar.show({ tone: 'success', message: t('partnership.deleted') });
        partnerships.reload();
      },
    });

  const owner = organization.data?.organization;
  const failed = partnerships.error !== null;
  return (
    <Panel aria-labelledby="partnerships-title">
      <Heading>
        <h2 id="partnerships-title">{t('partnership.list.title')}</h2>
        <Button variant="text" disabled={failed || partnerships.loading} onClick={() => downloadCsv('partnerships.csv', toCsv(columns, partnerships.rows))}>
          {t('list.export')}
        </Button>
        <Button permitted={may('partnership.create')} disabled={owner === undefined} onClick={() => owner && setDialog({ kind: 'create', owner })}>
          {t('partnership.create')}
        </Button>
      </Heading>
      {failed ? (
        <LoadFailed message={t('list.failed')} onRetry={partnerships.reload} />
      ) : partnerships.rows.length === 0 ? (
        <p>{partnerships.loading ? t('loading') : t('partnership.list.empty')}</p>
      ) : (
        <ShortTable aria-label={t('partnership.list.title')}>
          <thead>
            <tr>
              <th scope="col">{t('partnership.list.ownerToPartner')}</th>
              <th scope="col">{t('partnership.role')}</th>
              <th scope="col">{t('partnership.list.devices')}</th>
              <th scope="col">{t('partnership.description')}</th>
              <th scope="col">{t('partnership.list.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {partnerships.rows.map((row) => (
              <tr key={row.hashId}>
                <td>
                  {row.owner.name} → {row.partner.name}
                </td>
                <td>{t(`partnership.role.${row.role}`)}</td>
                <td>{devicesText(row)}</td>
                <td>{row.description}</td>
                <RowActions>
                  <Button variant="text" onClick={() => setHistory(row)}>
                    {t('partnership.history')}
                  </Button>
                  <Button variant="text" permitted={may('partnership.update')} onClick={() => setDialog({ kind: 'edit', partnership: row })}>
                    {t('partnership.edit')}
                  </Button>
                  <Button variant="text" permitted={may('partnership.delete')} onClick={() => remove(row)}>
                    {t('partnership.delete')}
                  </Button>
                </RowActions>
              </tr>
            ))}
          </tbody>
        </ShortTable>
      )}
      {dialog !== null && (
        <PartnershipDialog
          subject={dialog}
          onClose={() => setDialog(null)}
          onSaved={() => {
            snackbar.show({ tone: 'success', message: t('partnership.saved') });
            partnerships.reload();
          }}
        />
      )}
      {history !== null && (
        <Dialog title={t('partnership.history.title', { owner: history.owner.name, partner: history.partner.name })} onRequestClose={() => setHistory(null)}>
          <ObjectAuditLog objectType="PARTNERSHIPS" hashId={history.hashId} label={t('partnership.history')} />
        </Dialog>
      )}
    </Panel>
  );
}

const Heading = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  h2 {
    margin: 0 auto 0 0;
  }
`;

const RowActions = styled.td`
  white-space: nowrap;
  text-align: right;
`;
