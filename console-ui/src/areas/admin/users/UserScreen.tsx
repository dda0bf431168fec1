import { useQuery } from '@apollo/client/react';
import { apiErrorOfApollo } from '../../../api/apollo';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import styled from 'styled-components';
import * as yup from 'yup';
import { isStaffRight, type Right } from '../../../../../contracts/rights';
import { userUpdateSchema } from '../../../../../contracts/user';
import { Button } from '../../../components/Button';
import { ObjectFrame, Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { TextField } from '../../../components/TextField';
import { useApolloErrorSnackbar, useQueryErrorSnackbar } from '../../../components/useErrorSnackbar';
import { LoadFailed } from '../../../components/LoadFailed';
import { AdminUserDocument, type UserScreen_UserFragment } from './UserScreen.generated';
import type { UserUpdateInput } from './useUpdateUser.generated';
import { useMessages } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { useSession } from '../../../session/useSession';
import { ObjectAuditLog } from '../audit/ObjectAuditLog';
import { UnsavedChangesGuard } from '../../../components/FormDialog';
import { OrganizationPicker, type PickedOrganization } from '../organizations/OrganizationPicker';
import { RightsField } from './RightsField';
import { rightName } from './rights';
import { useUpdateUser } from './useUpdateUser';
import { userChangeRefusal } from './user-refusals';

interface Values {
  name: string;
  email: string;
  rights: Right[];
  organization: PickedOrganization;
}

function valuesOf(user: UserScreen_UserFragment): Values {
  return { name: user.name, email: user.email, rights: user.rights as Right[], organization: user.organization };
}

const sameRights = (a: readonly Right[], b: readonly Right[]) => [...a].sort().join() === [...b].sort().join();

/** Only what changed, as updateUser takes it. */
export function userChanges(before: Values, after: Values): UserUpdateInput {
  const input: UserUpdateInput = {};
  if (after.name.trim() !== before.name) {
    input.name = after.name.trim();
  }
  if (after.email.trim() !== before.email) {
    input.email = after.email.trim();
  }
  if (!sameRights(after.rights, before.rights)) {
    input.rights = after.rights.map(rightName);
  }
  if (after.organization.hashId !== before.organization.hashId) {
    input.organizationHashId = after.organization.hashId;
  }
  return input;
}

/** The rules of updateUser (contracts/user.ts); the form holds the organisation itself rather than its hash id. */
const schema = userUpdateSchema.pick(['name', 'email', 'rights']).shape({ organization: yup.object().required() });

/** One user (/admin/users/{hashId}/general): who they are, what an admin may change of them, and their history. */
export function UserScreen() {
  const t = useMessages();
  const { hashId = '' } = useParams();
  const { data, error, refetch } = useQuery(AdminUserDocument, { variables: { hashId } });
  useQueryErrorSnackbar(error);
  const [saved, setSaved] = useState<UserScreen_UserFragment | null>(null);
  const user = saved?.hashId === hashId ? saved : data?.user;
  if (user === undefined) {
    if (error === undefined) {
      return <p>{t('user.loading')}</p>;
    }
    if (apiErrorOfApollo(error)?.kind === 'notFound') {
      return <p role="alert">{t('user.notFound')}</p>;
    }
    // A failed retry shows through the query's error and its snackbar.
    return <LoadFailed message={t('user.failed')} onRetry={() => void refetch().catch(() => undefined)} />;
  }
  // A new answer (saved, or another user) starts the form over from it, and reads the history again.
  const version = JSON.stringify(user);
  return (
    <ObjectFrame
      title={user.name}
      subtitle={
        <>
          {user.email} — <Link to={`/admin/organizations/${user.organization.hashId}`}>{user.organization.name}</Link>
        </>
      }
      tabs={[{ to: `/admin/users/${user.hashId}/general`, label: t('user.general') }]}
    >
      <UserForm key={version} user={user} onSaved={setSaved} />
      <Panel>
        <h2>{t('user.history')}</h2>
        <ObjectAuditLog key={version} objectType="USERS" hashId={user.hashId} label={t('user.history')} />
      </Panel>
    </ObjectFrame>
  );
}

/**
 * What an admin may change: Ops change customer users; staff rights and staff users are
 * Admin's; nobody changes their own rights. The server decides; the form only offers what it allows.
 */
function UserForm({ user, onSaved }: { user: UserScreen_UserFragment; onSaved: (user: UserScreen_UserFragment) => void }) {
  const t = useMessages();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { may, isAdmin } = usePermissions();
  const { profile } = useSession();
  const [save] = useUpdateUser();
  const [refusal, setRefusal] = useState<string | null>(null);
  const initial = valuesOf(user);
  const isStaffUser = user.organization.isProvider || user.rights.some(isStaffRight);
  const permitted = may('user.update') && (isAdmin || !isStaffUser);
  const isSelf = profile?.user.hashId === user.hashId;

  const onSubmit = async (values: Values, helpers: FormikHelpers<Values>) => {
    setRefusal(null);
    try {
      const answer = await save(user.hashId, userChanges(initial, values));
      snackbar.show({ tone: 'success', message: t('user.edit.saved') });
      if (answer !== null) {
        onSaved(answer);
      }
    } catch (failure) {
      const text = userChangeRefusal(failure, t);
      if (text === null) {
        showError(failure);
      } else {
        setRefusal(text);
      }
      helpers.setSubmitting(false);
    }
  };

  return (
    <Panel>
      <h2>{t('user.edit.title')}</h2>
      <Formik<Values> initialValues={initial} validationSchema={schema} onSubmit={onSubmit}>
        {(form) => (
          <Form aria-label={t('user.edit.title')}>
            <UnsavedChangesGuard active={form.dirty && !form.isSubmitting} />
            <Fields disabled={!permitted || form.isSubmitting}>
              <TextField name="name" label={t('user.edit.name')} maxLength={255} />
              <TextField name="email" type="email" label={t('user.edit.email')} maxLength={255} />
              <OrganizationPicker
                label={t('user.edit.organization')}
                value={form.values.organization}
                disabled={!permitted}
                onChange={(organization) => {
                  void form.setFieldValue('organization', organization);
                  if (organization.isProvider !== form.values.organization.isProvider) {
                    // Rights of the other kind do not fit: start from what every user of that kind holds.
                    void form.setFieldValue('rights', organization.isProvider ? ['gridport.employee'] : ['customer.read']);
                  }
                }}
              />
              <RightsField
                name="rights"
                label={t('user.edit.rights')}
                isProvider={form.values.organization.isProvider}
                mayGrant={(right) => !isStaffRight(right) || (isAdmin && !isSelf)}
                disabled={!permitted || isSelf}
                help={isSelf ? t('user.edit.ownRights') : isAdmin ? undefined : t('user.edit.staffRightsNeedAdmin')}
              />
              {form.values.organization.hashId !== user.organization.hashId && <Note>{t('user.edit.movedSignsOut')}</Note>}
            </Fields>
            {refusal !== null && (
              <Refusal role="alert" data-testid="user-refusal">
                {refusal}
              </Refusal>
            )}
            <Actions>
              <Button type="submit" permitted={permitted} disabled={!form.dirty} loading={form.isSubmitting}>
                {t('user.edit.save')}
              </Button>
              <Button variant="text" disabled={!form.dirty || form.isSubmitting} onClick={() => form.resetForm()}>
                {t('user.edit.reset')}
              </Button>
            </Actions>
          </Form>
        )}
      </Formik>
    </Panel>
  );
}

const Fields = styled.fieldset`
  border: 0;
  padding: 0;
  margin: 0;
  max-width: 520px;
`;

const Actions = styled.div`
  display: flex;
  gap: 8px;
`;

const Note = styled.p`
  color: ${({ theme }) => theme.colors.warning};
`;

const Refusal = styled.p`
  color: ${({ theme }) => theme.colors.error};
`;
