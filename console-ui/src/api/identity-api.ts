import type { LoginInput, PasswordResetInput, PasswordResetRequest, RecoveryCodesView, TwoFactorChallengeView } from '../../../contracts/login';
import type { UserInviteConvert, UserInviteView } from '../../../contracts/user-invite';
import type { WhoamiView } from '../../../contracts/user';
import type { RestClient } from './rest';

/** The identity calls of the console (console.md section 7; shapes from contracts/). */
export function identityApi(rest: RestClient) {
  return {
    whoami: () => rest.request<WhoamiView>('/console-shared/v1/authentication/whoami'),
    login: (input: LoginInput) => rest.request<WhoamiView>('/console-shared/v1/login', { method: 'POST', body: input }),
    logout: () => rest.request<void>('/console-shared/v1/authentication/session', { method: 'DELETE' }),
    requestPasswordReset: (email: PasswordResetRequest['email']) =>
      rest.request<void>('/console/v1/password-reset', { method: 'POST', body: { email } satisfies PasswordResetRequest }),
    resetPassword: (email: PasswordResetRequest['email'], body: PasswordResetInput) =>
      rest.request<void>('/console/v1/password-reset/reset', { method: 'POST', query: { email }, body }),
    userInvite: (hashId: string, code: string) => rest.request<UserInviteView>(`/console/v1/user-invite/${encodeURIComponent(hashId)}`, { query: { code } }),
    userInviteChallenge: (hashId: string, code: string) =>
      rest.request<TwoFactorChallengeView>(`/console/v1/user-invite/${encodeURIComponent(hashId)}/create-challenge`, { method: 'POST', query: { code } }),
    acceptUserInvite: (hashId: string, code: string, body: UserInviteConvert) =>
      rest.request<RecoveryCodesView>(`/console/v1/user-invite/${encodeURIComponent(hashId)}`, { method: 'POST', query: { code }, body }),
  };
}

export type IdentityApi = ReturnType<typeof identityApi>;

/** The staff sign-in (SAML), returning to `relayState` afterwards. */
export function samlLoginUrl(relayState: string): string {
  return `/console-admin/v1/saml2/login?relayState=${encodeURIComponent(relayState)}`;
}
