import type { Knex } from 'knex';
import { GridportError, type ErrorKey } from '../../../contracts/errors';
import { loginThrottle, type LoginInput } from '../../../contracts/login';
import type { SecretBox } from '../../common/secret-box';
import { UserModel } from '../models/user.model';
import { decoyPasswordHash, verifyPassword } from './password';
import type { MintedSession, SessionService } from './session.service';
import { proveSecondFactor } from './second-factor';

type Outcome = { ok: true; userId: number } | { ok: false; key: ErrorKey; counts: boolean };

/**
 * Password login (console.md section 7): email and password, then the two-factor code or a
 * recovery code when the user has two-factor on. Failed attempts are counted per email and per
 * address; 6 within 15 minutes lock either until the window passes. Attempts on one email or
 * address are taken one at a time (advisory locks), so parallel guesses are counted too.
 */
export class LoginService {
  constructor(
    private readonly db: Knex,
    private readonly sessions: SessionService,
    private readonly box: SecretBox,
  ) {}

  async login(input: LoginInput, address: string): Promise<MintedSession> {
    const email = input.email.toLowerCase();
    const outcome = await this.db.transaction(async (trx): Promise<Outcome> => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`login:email:${email}`]);
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`login:address:${address}`]);
      if (await this.locked(trx, email, address)) {
        return { ok: false, key: 'too_many_failed_attempts', counts: false };
      }
      const result = await this.check(trx, email, input);
      if (result.ok || result.counts) {
        await trx('login_attempts').insert({ email, address, succeeded: result.ok });
      }
      return result;
    });
    if (!outcome.ok) {
      throw new GridportError(outcome.key);
    }
    return this.sessions.mint(outcome.userId, 'login');
  }

  private async locked(trx: Knex.Transaction, email: string, address: string): Promise<boolean> {
    const since = new Date(Date.now() - loginThrottle.windowMinutes * 60_000);
    const row = (await trx('login_attempts')
      .where('succeeded', false)
      .where('created_at', '>', since)
      .select(trx.raw('count(*) filter (where email = ?) as by_email', [email]), trx.raw('count(*) filter (where address = ?) as by_address', [address]))
      .first()) as { by_email: number | string; by_address: number | string } | undefined;
    return Number(row?.by_email ?? 0) >= loginThrottle.failures || Number(row?.by_address ?? 0) >= loginThrottle.failures;
  }

  private async check(trx: Knex.Transaction, email: string, input: LoginInput): Promise<Outcome> {
    const user = await UserModel.query(trx).modify('withEmail', email).forUpdate().first();
    const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? (await decoyPasswordHash()));
    if (!user || !user.passwordHash || !passwordOk) {
      return { ok: false, key: 'invalid_credentials', counts: true };
    }
    if (!user.twoFactorSecret) {
      return { ok: true, userId: user.id };
    }
    const outcome = await proveSecondFactor(trx, this.box, user, input);
    if (outcome === 'accepted') {
      return { ok: true, userId: user.id };
    }
    // A wrong code counts as a failed attempt; a missing one does not.
    return { ok: false, key: outcome, counts: outcome === '2fa_code_invalid' };
  }
}
