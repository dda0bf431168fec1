import { useMutation, useQuery } from '@apollo/client/react';
import { Form, Formik } from 'formik';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import * as yup from 'yup';
import { inviteMayGrant, type Right } from '../../../../../contracts/rights';
import { userInvite } from '../../../../../contracts/user-invite';
import { apiErrorOfApollo } from '../../../api/apollo';
import { Button } from '../../../components/Button';
import { Panel } from '../../../components/ObjectFrame';
import { useSnackbar } from '../../../components/Snackbars';
import { TextAreaField } from '../../../components/TextField';
import { useApolloErrorSnackbar } from '../../../components/useErrorSnackbar';
import { InviteUsersDocument } from './UserInviteAddScreen.generated';
import { OrganizationPickerOrganizationDocument } from '../organizations/OrganizationPicker.generated';
import { useMessages, type Translate } from '../../../i18n/messages';
import { usePermissions } from '../../../session/usePermissions';
import { useSession } from '../../../session/useSession';
import { UnsavedChangesGuard } from '../../../components/FormDialog';
import { OrganizationPicker, type PickedOrganization } from '../organizations/OrganizationPicker';
import { RightsField } from '../users/RightsField';
import { rightName } from '../users/rights';
import { emailsOf, invalidEmails } from './invite-emails';

interface Values {
  emails: string;
  organization: PickedOrganization | null;
  rights: Right[];
}

/** What every new user of an organisation of this kind holds, unless more is ticked. */
const baseRights = (isProvider: boolean): Right[] => (isProvider ? ['gridport.employee'] : ['customer.read']);

/** The rules of inviteUsers (contracts/user-invite.ts) for the form's text of emails, with messages naming the offending emails. */
function schemaOf(t: Translate) {
  return yup.object({
    emails: yup.string().test('emails', (text, context) => {
      const emails = emailsOf(text ?? '');
      if (emails.length === 0) {
        return context.createError({ message: t('userInvite.add.emails.required') });
      }
      if (emails.length > userInvite.maxEmails) {
        return context.createError({ message: t('userInvite.add.emails.tooMany', { max: userInvite.maxEmails, count: emails.length }) });
      }
      const invalid = invalidEmails(emails);
      return invalid.length === 0 || context.createError({ message: t('userInvite.add.emails.invalid', { emails: invalid.join(', ') }) });
    }),
    organization: yup.object().nullable().required(t('userInvite.add.organization.required')),
    rights: yup.array().min(1),
  });
}

/** The emails a refusal names (has_invite, user_exists carry them in details.emails). */
function emailsOfRefusal(details: unknown): string {
  const emails = (details as { emails?: unknown } | null | undefined)?.emails;
  return Array.isArray(emails) ? emails.map(String).join(', ') : '';
}

/**
 * Invites 1 to 20 people into an organisation (/admin/user-invites/add; Ops): each gets a mail
 * with a link to join, valid for 7 days. `?organizationHashId=` chooses the organisation first
 * (the organisation's users tab links here so).
 */
export function UserInviteAddScreen() {
  const t = useMessages();
  const [search] = useSearchParams();
  const preselected = search.get('organizationHashId');
  const { data, error } = useQuery(OrganizationPickerOrganizationDocument, { variables: { hashId: preselected ?? '' }, skip: preselected === null });
  if (preselected !== null && data === undefined && error === undefined) {
    return <p>{t('loading')}</p>;
  }
  return <InviteForm organization={data?.organization ?? null} backTo={preselected === null ? null : `/admin/organizations/${preselected}/users`} />;
}

function InviteForm({ organization, backTo }: { organization: PickedOrganization | null; backTo: string | null }) {
  const t = useMessages();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const showError = useApolloErrorSnackbar();
  const { may, isAdmin } = usePermissions();
  const held = useSession().profile?.user.rights ?? [];
  const [invite] = useMutation(InviteUsersDocument);
  const [refusal, setRefusal] = useState<string | null>(null);
  const schema = useMemo(() => schemaOf(t), [t]);
  const permitted = may('userInvite.create');
  const initial: Values = { emails: '', organization, rights: organization === null ? [] : baseRights(organization.isProvider) };

  const onSubmit = async (values: Values) => {
    const chosen = values.organization;
    if (chosen === null) {
      return;
    }
    setRefusal(null);
    try {
      const answer = await invite({
        variables: { input: { organizationHashId: chosen.hashId, emails: emailsOf(values.emails), rights: values.rights.map(rightName) } },
      });
      snackbar.show({ tone: 'success', message: t('userInvite.add.sent', { count: answer.data?.inviteUsers.length ?? 0 }) });
      navigate(backTo ?? `/admin/user-invites?organizationHashId=${encodeURIComponent(chosen.hashId)}`);
    } catch (failure) {
      const apiError = apiErrorOfApollo(failure);
      if (apiError?.is('has_invite')) {
        setRefusal(t('userInvite.add.hasInvite', { emails: emailsOfRefusal(apiError.details) }));
      } else if (apiError?.is('user_exists')) {
        setRefusal(t('userInvite.add.userExists', { emails: emailsOfRefusal(apiError.details) }));
      } else if (apiError?.is('payload_invalid') && Array.isArray(apiError.details)) {
        setRefusal((apiError.details as { message?: unknown }[]).map((issue) => String(issue.message)).join('; '));
      } else {
        showError(failure);
      }
    }
  };

  return (
    <section>
      <h1>{t('userInvite.add.title')}</h1>
      <Panel>
        <Formik<Values> initialValues={initial} validationSchema={schema} onSubmit={onSubmit}>
          {(form) => (
            <Form aria-label={t('userInvite.add.title')}>
              <UnsavedChangesGuard active={form.dirty && !form.isSubmitting} />
              <Fields disabled={!permitted || form.isSubmitting}>
                <TextAreaField
                  name="emails"
                  label={t('userInvite.add.emails')}
                  rows={5}
                  help={t('userInvite.add.emails.help', { max: userInvite.maxEmails })}
                />
                <OrganizationPicker
                  label={t('userInvite.add.organization')}
                  value={form.values.organization}
                  disabled={!permitted}
                  onChange={(chosen) => {
                    void form.setFieldValue('organization', chosen);
                    if (chosen.isProvider !== form.values.organization?.isProvider) {
                      void form.setFieldValue('rights', baseRights(chosen.isProvider));
                    }
                  }}
                />
                {form.touched.organization === true && typeof form.errors.organization === 'string' && (
                  <Refusal role="alert">{form.errors.organization}</Refusal>
                )}
                {form.values.organization !== null && (
                  <RightsField
                    name="rights"
                    label={t('userInvite.add.rights')}
                    isProvider={form.values.organization.isProvider}
                    mayGrant={(right) => inviteMayGrant(held, right)}
                    disabled={!permitted}
                    help={t(
                      !form.values.organization.isProvider
                        ? 'userInvite.add.rights.help.customer'
                        : isAdmin
                          ? 'userInvite.add.rights.help.provider'
                          : 'userInvite.add.rights.help.providerNeedsAdmin',
                    )}
                  />
                )}
              </Fields>
              {refusal !== null && (
                <Refusal role="alert" data-testid="invite-refusal">
                  {refusal}
                </Refusal>
              )}
              <Actions>
                <Button type="submit" permitted={permitted} loading={form.isSubmitting}>
                  {t('userInvite.add.submit')}
                </Button>
                <Button variant="text" onClick={() => navigate(backTo ?? '/admin/user-invites')}>
                  {t('userInvite.add.cancel')}
                </Button>
              </Actions>
            </Form>
          )}
        </Formik>
      </Panel>
    </section>
  );
}

const Fields = styled.fieldset`
  border: 0;
  padding: 0;
  margin: 0 0 12px;
  max-width: 560px;
`;

const Actions = styled.div`
  display: flex;
  gap: 8px;
`;

const Refusal = styled.p`
  color: ${({ theme }) => theme.colors.error};
`;
