import type { RecoveryCodesView, TwoFactorChallengeView, TwoFactorChangeApp, TwoFactorProof } from '../../../../../contracts/login';
import type { RestClient } from '../../../api/rest';

const base = '/console/v1/settings/two-factor';

/** The two-factor settings calls (console.md section 7; shapes from contracts/login.ts). */
export function twoFactorApi(rest: RestClient) {
  return {
    /** A new secret; once two-factor is on, the current app's code or a recovery code proves the user. */
    generateChallenge: (proof: TwoFactorProof) => rest.request<TwoFactorChallengeView>(`${base}/generate-challenge`, { method: 'POST', body: proof }),
    changeApp: (twoFactorCode: TwoFactorChangeApp['twoFactorCode']) =>
      rest.request<RecoveryCodesView>(`${base}/change-app`, { method: 'POST', body: { twoFactorCode } satisfies TwoFactorChangeApp }),
    newRecoveryCodes: () => rest.request<RecoveryCodesView>(`${base}/new-recovery-codes`, { method: 'POST' }),
  };
}
