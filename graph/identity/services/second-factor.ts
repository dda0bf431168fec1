import type { Knex } from 'knex';
import type { SecretBox } from '../../common/secret-box';
import { UserModel } from '../models/user.model';
import { acceptedTwoFactorStep, spendRecoveryCode } from './two-factor';

export type SecondFactorOutcome = 'accepted' | '2fa_code_required' | '2fa_code_invalid';

/**
 * Checks the second factor of a user who has two-factor on: a current code (each usable once)
 * or a recovery code (spent). What it uses up is written in `trx`, the caller's transaction.
 */
export async function proveSecondFactor(
  trx: Knex.Transaction,
  box: SecretBox,
  user: UserModel,
  proof: { code?: string | undefined; recoveryCode?: string | undefined },
): Promise<SecondFactorOutcome> {
  if (proof.code && user.twoFactorSecret) {
    const step = await acceptedTwoFactorStep(box.open(user.twoFactorSecret), proof.code, user.twoFactorLastStep);
    if (step === null) {
      return '2fa_code_invalid';
    }
    await UserModel.query(trx).patch({ twoFactorLastStep: step }).where('id', user.id);
    return 'accepted';
  }
  if (proof.recoveryCode) {
    const left = spendRecoveryCode(user.recoveryCodeHashes, proof.recoveryCode);
    if (left === null) {
      return '2fa_code_invalid';
    }
    await UserModel.query(trx).patch({ recoveryCodeHashes: left }).where('id', user.id);
    return 'accepted';
  }
  return '2fa_code_required';
}
