import { Link, useNavigate } from 'react-router-dom';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { createInputOf, newOrganizationValues, organizationCreateFormSchema, type OrganizationValues } from './organization-form';
import { OrganizationForm } from './OrganizationForm';
import { useCreateOrganization } from './useCreateOrganization';

/** A new organisation (/admin/organizations/add); once created, its general tab opens. */
export function OrganizationAddScreen() {
  const t = useMessages();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const { may } = usePermissions();
  const create = useCreateOrganization();

  const onSubmit = async (values: OrganizationValues) => {
    const { type } = values;
    if (type === '') {
      // Not reached: the schema asks for a type before the form submits.
      return;
    }
    const hashId = await create(createInputOf({ ...values, type }));
    snackbar.show({ tone: 'success', message: t('organizations.add.created', { name: values.name.trim() }) });
    navigate(`/admin/organizations/${hashId}/general`);
  };

  return (
    <section>
      <p>
        <Link to="/admin/organizations">{t('organizations.backToList')}</Link>
      </p>
      <h1>{t('organizations.add.title')}</h1>
      <Panel>
        <OrganizationForm
          initialValues={newOrganizationValues}
          validationSchema={organizationCreateFormSchema}
          onSubmit={onSubmit}
          submitText={t('organizations.add.submit')}
          permitted={may('organization.create')}
        />
      </Panel>
    </section>
  );
}
