import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { twoFactorChallengeMinutes } from '../../../contracts/login';
import type { Actor } from '../../common/context';
import { authorize } from '../../common/context';
import type { SecretBox } from '../../common/secret-box';
import { write, type Write } from '../../common/write';
import { UserModel } from '../models/user.model';
import { proveSecondFactor } from './second-factor';
import { acceptedTwoFactorStep, newRecoveryCodes, newTwoFactorSecret, twoFactorKeyUri } from './two-factor';

/**
 * Two-factor settings of the customer console (console.md section 7): a new authenticator app
 * is set up by a challenge (secret and key URI) confirmed with its first code, which also
 * issues 10 recovery codes; recovery codes can be renewed. Changing an app already set up
 * needs its current code or a recovery code.
 */
export class TwoFactorService {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  private async user(w: Write, actor: Actor): Promise<UserModel> {
    authorize(actor, 'twoFactor.manage');
    if (actor.kind !== 'user' || actor.userId === null) {
      throw new GridportError('forbidden', { reason: 'two-factor settings belong to a signed-in user' });
    }
    const user = await UserModel.query(w.trx).findById(actor.userId).forUpdate();
    if (!user) {
      throw new GridportError('unauthorized');
    }
    return user;
  }

  private async audit(w: Write, user: UserModel, fields: string[]): Promise<void> {
    await w.audit({
      objectType: 'users',
      objectId: user.id,
      organizationId: user.organizationId,
      changeType: 'controller2faChanges',
      diff: fields.map((name) => ({ type: 'hidden', name })),
    });
  }

  /** A new secret to add to an authenticator app; proves the current app (or a recovery code) first when one is set up. */
  async generateChallenge(actor: Actor, proof: { twoFactorCode?: string; recoveryCode?: string }): Promise<{ secret: string; keyuri: string }> {
    return write(this.db, actor, async (w) => {
      const user = await this.user(w, actor);
      if (user.twoFactorSecret) {
        const outcome = await proveSecondFactor(w.trx, this.box, user, { code: proof.twoFactorCode, recoveryCode: proof.recoveryCode });
        if (outcome !== 'accepted') {
          throw new GridportError(outcome);
        }
      }
      const secret = newTwoFactorSecret();
      await UserModel.query(w.trx)
        .patch({ pendingTwoFactorSecret: this.box.seal(secret), pendingTwoFactorExpiresAt: new Date(Date.now() + twoFactorChallengeMinutes * 60_000) })
        .where('id', user.id);
      await this.audit(w, user, ['pendingTwoFactorSecret']);
      return { secret, keyuri: twoFactorKeyUri(user.email, secret) };
    });
  }

  /** Confirms the challenged secret with a code from the new app; answers a fresh set of recovery codes. */
  async changeApp(actor: Actor, twoFactorCode: string): Promise<{ recoveryCodes: string[] }> {
    const outcome = await write(this.db, actor, async (w) => {
      const user = await this.user(w, actor);
      if (!user.pendingTwoFactorSecret || !user.pendingTwoFactorExpiresAt) {
        return { error: new GridportError('invalid_code', { reason: 'generate a challenge first' }) };
      }
      if (user.pendingTwoFactorExpiresAt.getTime() <= Date.now()) {
        await UserModel.query(w.trx).patch({ pendingTwoFactorSecret: null, pendingTwoFactorExpiresAt: null }).where('id', user.id);
        return { error: new GridportError('secret_expired') };
      }
      const secret = this.box.open(user.pendingTwoFactorSecret);
      const step = await acceptedTwoFactorStep(secret, twoFactorCode, null);
      if (step === null) {
        return { error: new GridportError('2fa_code_invalid') };
      }
      const { codes, hashes } = newRecoveryCodes();
      await UserModel.query(w.trx)
        .patch({
          twoFactorSecret: user.pendingTwoFactorSecret,
          twoFactorLastStep: step,
          recoveryCodeHashes: hashes,
          pendingTwoFactorSecret: null,
          pendingTwoFactorExpiresAt: null,
        })
        .where('id', user.id);
      await this.audit(w, user, ['twoFactorSecret', 'recoveryCodes']);
      return { recoveryCodes: codes };
    });
    if ('error' in outcome) {
      throw outcome.error;
    }
    return outcome;
  }

  /** Replaces the recovery codes (two-factor must be on). */
  async newRecoveryCodes(actor: Actor): Promise<{ recoveryCodes: string[] }> {
    return write(this.db, actor, async (w) => {
      const user = await this.user(w, actor);
      if (!user.twoFactorSecret) {
        throw new GridportError('forbidden', { reason: 'two-factor is not set up' });
      }
      const { codes, hashes } = newRecoveryCodes();
      await UserModel.query(w.trx).patch({ recoveryCodeHashes: hashes }).where('id', user.id);
      await this.audit(w, user, ['recoveryCodes']);
      return { recoveryCodes: codes };
    });
  }
}
