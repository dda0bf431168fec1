import { useQuery } from '@apollo/client/react';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import styled from 'styled-components';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { AdminOrganizationDocument } from './OrganizationFrame.generated';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { up } from '../../../theme/theme';
import { ObjectAuditLog } from '../audit/ObjectAuditLog';
import { changesOf, organizationUpdateFormSchema, valuesOf, type OrganizationValues } from './organization-form';
import { OrganizationForm } from './OrganizationForm';
import { useUpdateOrganization } from './useUpdateOrganization';

/**
 * An organisation's general tab: its fields (console.md section 3, billing aside), editable by
 * whoever may update organisations (Ops, Developer, Sales), and its history from the audit log.
 */
export function OrganizationGeneralTab() {
  const t = useMessages();
  const snackbar = useSnackbar();
  const { may } = usePermissions();
  const { hashId = '' } = useParams();
  // The frame has read the organisation already: this reads it from the cache.
  const { data } = useQuery(AdminOrganizationDocument, { variables: { hashId } });
  const update = useUpdateOrganization();
  const organization = data?.organization;
  const saved = useMemo(() => (organization === undefined ? null : valuesOf(organization)), [organization]);
  if (organization === undefined || saved === null) {
    return null;
  }

  const onSubmit = async (values: OrganizationValues) => {
    await update(organization.hashId, changesOf(saved, values));
    snackbar.show({ tone: 'success', message: t('organizations.general.saved') });
  };

  return (
    <Columns>
      <Panel>
        <h2>{t('organizations.general.title')}</h2>
        {organization.isProvider && <p>{t('organizations.general.provider')}</p>}
        <OrganizationForm
          initialValues={saved}
          validationSchema={organizationUpdateFormSchema}
          onSubmit={onSubmit}
          submitText={t('organizations.general.save')}
          permitted={may('organization.update')}
          onlyChanges
          isProvider={organization.isProvider}
        />
        <Dates>
          {t('organizations.general.created', {
            createdAt: new Date(organization.createdAt).toLocaleString(),
            updatedAt: new Date(organization.updatedAt).toLocaleString(),
          })}
        </Dates>
      </Panel>
      <Panel>
        <h2>{t('organizations.history')}</h2>
        {/* A save changes updatedAt: the history reads again and shows the save. */}
        <ObjectAuditLog key={organization.updatedAt} objectType="ORGANIZATIONS" hashId={organization.hashId} label={t('organizations.history')} />
      </Panel>
    </Columns>
  );
}

/** The fields beside their history on a wide screen, one above the other on a narrow one. */
const Columns = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 0 16px;
  ${up('lg')} {
    grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
    align-items: start;
  }
`;

const Dates = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 13px;
`;
