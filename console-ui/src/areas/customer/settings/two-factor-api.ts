import type { RestClient } from '../../../api/rest';

/** A new two-factor secret and its otpauth:// key URI, to add to an authenticator app. */
export interface TwoFactorChallenge {
  secret: string;
  keyuri: string;
}

/** The proof of the current app asked before a new secret, once two-factor is on. */
export interface TwoFactorProof {
  twoFactorCode?: string;
  recoveryCode?: string;
}

const base = '/console/v1/settings/two-factor';

/** The two-factor settings calls (console.md section 7; server/rest/two-factor.routes.ts). */
export function twoFactorApi(rest: RestClient) {
  return {
    generateChallenge: (proof: TwoFactorProof) => rest.request<TwoFactorChallenge>(`${base}/generate-challenge`, { method: 'POST', body: proof }),
    changeApp: (twoFactorCode: string) => rest.request<{ recoveryCodes: string[] }>(`${base}/change-app`, { method: 'POST', body: { twoFactorCode } }),
    newRecoveryCodes: () => rest.request<{ recoveryCodes: string[] }>(`${base}/new-recovery-codes`, { method: 'POST' }),
  };
}
