import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { passwordReset } from '../../../contracts/login';
import { systemActor } from '../../common/context';
import type { SecretBox } from '../../common/secret-box';
import { write } from '../../common/write';
import type { MailService } from '../../operations/services/mail.service';
import { PasswordResetModel } from '../models/password-reset.model';
import { SessionModel } from '../models/session.model';
import { UserModel } from '../models/user.model';
import { hashPassword } from './password';
import { proveSecondFactor } from './second-factor';
import { isoTime } from '../../common/timestamps';

const hashCode = (code: string) => createHash('sha256').update(code).digest();

/**
 * Password reset (console.md section 7): a code sent by mail, valid for an hour and once; at
 * most 3 requests per email per hour, counted alike for emails without an account. A reset ends every session of the user. Users with two-factor on
 * also give a recovery code.
 */
export class PasswordResetService {
  constructor(
    private readonly db: Knex,
    private readonly mail: MailService,
    private readonly box: SecretBox,
  ) {}

  private async findUser(db: Knex, email: string): Promise<UserModel | undefined> {
    return UserModel.query(db).modify('withEmail', email).first();
  }

  /**
   * Mails a reset link. An unknown email is answered the same way and mails nothing; the hourly
   * allowance counts requests per email whether or not it has an account, so a 429 tells nothing
   * either. Requests for one email are counted one at a time (an advisory lock).
   */
  async request(email: string): Promise<void> {
    const emailHash = createHash('sha256').update(email.toLowerCase()).digest('hex');
    const allowed = await this.db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`password-reset:${emailHash}`]);
      const since = new Date(Date.now() - 60 * 60_000);
      await trx('password_reset_requests').where('created_at', '<=', since).delete();
      const row = (await trx('password_reset_requests').where('email_hash', emailHash).where('created_at', '>', since).count({ count: '*' }).first()) as
        { count: number | string } | undefined;
      if (Number(row?.count ?? 0) >= passwordReset.perHour) {
        return false;
      }
      await trx('password_reset_requests').insert({ email_hash: emailHash });
      return true;
    });
    if (!allowed) {
      throw new GridportError('rate_limit_exceeded_for_password_reset', { perHour: passwordReset.perHour });
    }
    const user = await this.findUser(this.db, email);
    if (!user) {
      return;
    }
    const code = randomBytes(24).toString('base64url');
    await PasswordResetModel.query(this.db).insert({
      userId: user.id,
      codeHash: hashCode(code).toString('hex'),
      expiresAt: new Date(Date.now() + passwordReset.validMinutes * 60_000),
      usedAt: null,
    });
    const link = this.mail.link(`/reset-password?email=${encodeURIComponent(user.email)}&code=${code}`);
    await this.mail.send({
      to: [user.email],
      subject: 'Reset your Gridport password',
      text: `Someone asked to reset the password of your Gridport account. If it was you, choose a new password here within ${passwordReset.validMinutes} minutes:\n\n${link}\n\nIf it was not you, ignore this mail; your password stays as it is.`,
    });
  }

  /**
   * Whether the reset that this email and mailed code name is waiting: its expiry, or
   * password_reset_expired. An unknown email, a wrong code and a used reset are all the same
   * not_found, so without the mailbox nothing is learnt.
   */
  async status(email: string, code: string): Promise<{ expiresAt: string }> {
    const user = await this.findUser(this.db, email);
    const resets = user ? await PasswordResetModel.query(this.db).where('user_id', user.id).whereNull('used_at') : [];
    const given = hashCode(code);
    const match = resets.find((reset) => timingSafeEqual(Buffer.from(reset.codeHash, 'hex'), given));
    if (!match) {
      throw new GridportError('not_found');
    }
    if (match.expiresAt.getTime() <= Date.now()) {
      throw new GridportError('password_reset_expired');
    }
    return { expiresAt: isoTime(match.expiresAt) };
  }

  /** Sets the new password with the mailed code, and ends every session of the user. */
  async reset(email: string, input: { password: string; code: string; recoveryCode?: string }): Promise<void> {
    const user = await this.findUser(this.db, email);
    // Hashed first, for an unknown email too, so that the answer takes as long either way.
    const passwordHash = await hashPassword(input.password);
    if (!user) {
      throw new GridportError('invalid_code');
    }
    const failure = await write(
      this.db,
      { ...systemActor('password reset'), userId: user.id, name: user.name, kind: 'user', rights: user.rights, organizationId: user.organizationId },
      async (w) => {
        const resets = await PasswordResetModel.query(w.trx).where('user_id', user.id).whereNull('used_at').orderBy('id', 'desc').forUpdate();
        const given = hashCode(input.code);
        const match = resets.find((reset) => timingSafeEqual(Buffer.from(reset.codeHash, 'hex'), given));
        if (!match) {
          return new GridportError('invalid_code');
        }
        if (match.expiresAt.getTime() <= Date.now()) {
          return new GridportError('password_reset_expired');
        }
        const locked = await UserModel.query(w.trx).findById(user.id).forUpdate();
        if (!locked) {
          return new GridportError('invalid_code');
        }
        if (locked.twoFactorSecret) {
          // Only a recovery code: a mailbox and an unlocked phone are too often the same device.
          const outcome = await proveSecondFactor(w.trx, this.box, locked, { recoveryCode: input.recoveryCode });
          if (outcome !== 'accepted') {
            return new GridportError(outcome);
          }
        }
        await UserModel.query(w.trx).patch({ passwordHash, updatedAt: new Date() }).where('id', user.id);
        await PasswordResetModel.query(w.trx).patch({ usedAt: new Date() }).where('user_id', user.id).whereNull('used_at');
        await SessionModel.query(w.trx).patch({ revokedAt: new Date() }).where('user_id', user.id).whereNull('revoked_at');
        await w.audit({
          objectType: 'users',
          objectId: user.id,
          organizationId: user.organizationId,
          changeType: 'controllerUserPasswordReset',
          diff: [{ type: 'hidden', name: 'passwordHash' }],
        });
        return null;
      },
    );
    if (failure) {
      throw failure;
    }
  }
}
