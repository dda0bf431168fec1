import { listOrganizationScope } from '../../common/tenancy';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { providerOrganizationId } from '../../../contracts/limits';
import { twoFactorChallengeMinutes } from '../../../contracts/login';
import type { Page } from '../../../contracts/pagination';
import type { Right } from '../../../contracts/rights';
import { checkRightsFitOrganization, inviteMayGrant } from '../../../contracts/rights';
import { userInvite, type UserInviteCreate, type UserInviteListQuery, type UserInviteView } from '../../../contracts/user-invite';
import type { Actor } from '../../common/context';
import { authorize, systemActor } from '../../common/context';
import { pageById } from '../../common/cursor';
import type { HashIds } from '../../common/hash-ids';
import { containsPattern } from '../../common/like';
import type { SecretBox } from '../../common/secret-box';
import { write } from '../../common/write';
import type { MailService } from '../../operations/services/mail.service';
import { OrganizationModel } from '../models/organization.model';
import { UserInviteModel } from '../models/user-invite.model';
import { UserModel } from '../models/user.model';
import { hashPassword } from './password';
import type { MintedSession, SessionService } from './session.service';
import { acceptedTwoFactorStep, newRecoveryCodes, newTwoFactorSecret, twoFactorKeyUri } from './two-factor';
import { isoTime } from '../../common/timestamps';

const hashCode = (code: string) => createHash('sha256').update(code).digest();

/**
 * User invites (console.md sections 3 and 7): Ops invite 1 to 20 emails into an organisation;
 * each invitee gets a mail with a link (the invite's hash id and a secret code), sets up
 * two-factor (create-challenge) and becomes a user (convert) within 7 days.
 */
export class UserInviteService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly box: SecretBox,
    private readonly mail: MailService,
    private readonly sessions: SessionService,
  ) {}

  private present(invite: UserInviteModel, organization: OrganizationModel): UserInviteView {
    return {
      hashId: this.hashIds.encode('userInvite', invite.id),
      email: invite.email,
      expiresAt: isoTime(invite.expiresAt),
      rights: invite.rights,
      organization: { hashId: this.hashIds.encode('organization', organization.id), name: organization.name },
    };
  }

  /** Invites every email; refuses the whole request when one already has a user or an open invite. */
  async create(actor: Actor, input: UserInviteCreate): Promise<UserInviteView[]> {
    authorize(actor, 'userInvite.create');
    const organizationId = this.hashIds.decode('organization', input.organizationHashId);
    if (organizationId === null) {
      throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
    }
    const isProvider = organizationId === providerOrganizationId;
    const rights: Right[] = input.rights ?? (isProvider ? ['gridport.employee'] : ['customer.read']);
    checkRightsFitOrganization(rights, isProvider, 'user');
    if (!rights.every((right) => inviteMayGrant(actor.rights, right))) {
      throw new GridportError('forbidden', { reason: 'inviting with a staff right beyond employee needs the admin right' });
    }
    const emails = input.emails.filter((email, index) => input.emails.findIndex((other) => other.toLowerCase() === email.toLowerCase()) === index);
    const sent: { invite: UserInviteModel; code: string }[] = [];
    const views = await write(this.db, actor, async (w) => {
      const organization = await OrganizationModel.query(w.trx).findById(organizationId);
      if (!organization) {
        throw new GridportError('not_found', { organizationHashId: input.organizationHashId });
      }
      await w.trx.raw('select pg_advisory_xact_lock(hashtext(?))', ['user-invites']);
      const lower = emails.map((email) => email.toLowerCase());
      const users = await UserModel.query(w.trx).whereRaw('lower(email) = any(?)', [lower]).select('email');
      if (users.length > 0) {
        throw new GridportError('user_exists', { emails: users.map((user) => user.email) });
      }
      const invited = await UserInviteModel.query(w.trx)
        .modify('open')
        .whereRaw('lower(email) = any(?)', [lower])
        .where('expires_at', '>', new Date())
        .select('email');
      if (invited.length > 0) {
        throw new GridportError('has_invite', { emails: invited.map((invite) => invite.email) });
      }
      const created: UserInviteView[] = [];
      for (const email of emails) {
        const code = randomBytes(24).toString('base64url');
        const invite = await UserInviteModel.query(w.trx).insertAndFetch({
          organizationId,
          email,
          rights,
          invitedByUserId: actor.userId,
          codeHash: hashCode(code).toString('hex'),
          expiresAt: new Date(Date.now() + userInvite.validDays * 24 * 60 * 60_000),
          revokedAt: null,
          convertedAt: null,
          userId: null,
          pendingTwoFactorSecret: null,
          pendingTwoFactorExpiresAt: null,
        });
        sent.push({ invite, code });
        created.push(this.present(invite, organization));
      }
      return created;
    });
    for (const { invite, code } of sent) {
      const link = this.mail.link(`/user-invite/${this.hashIds.encode('userInvite', invite.id)}?code=${code}`);
      await this.mail.send({
        to: [invite.email],
        subject: 'You are invited to Gridport',
        text: `You are invited to Gridport. Accept within ${userInvite.validDays} days to choose your name, password and two-factor app:\n\n${link}`,
      });
    }
    return views;
  }

  /** Open invites, newest first: staff see every organisation's (or one's), customers their own. */
  async list(actor: Actor, query: UserInviteListQuery): Promise<Page<UserInviteView>> {
    authorize(actor, 'userInvite.list', 'userInvite.listOwn');
    const builder = UserInviteModel.query(this.db).withGraphJoined('organization').modify('open');
    const organizationId = listOrganizationScope(actor, this.hashIds, query.organizationHashId);
    if (organizationId !== null) {
      void builder.where('user_invites.organization_id', organizationId);
    }
    if (query.filter) {
      void builder.whereILike('user_invites.email', containsPattern(query.filter));
    }
    return pageById(builder, query, (invite) => this.present(invite, invite.organization as OrganizationModel), 'user_invites.id');
  }

  async revoke(actor: Actor, hashId: string): Promise<void> {
    authorize(actor, 'userInvite.revoke');
    const id = this.hashIds.decode('userInvite', hashId);
    await write(this.db, actor, async (w) => {
      const invite = id === null ? undefined : await UserInviteModel.query(w.trx).modify('open').findById(id).forUpdate();
      if (!invite) {
        throw new GridportError('not_found', { userInviteHashId: hashId });
      }
      await UserInviteModel.query(w.trx).patch({ revokedAt: new Date() }).where('id', invite.id);
      await w.audit({
        objectType: 'users',
        objectId: invite.id,
        organizationId: invite.organizationId,
        changeType: 'controllerDelete',
        diff: [{ type: 'string', name: 'invite', oldValue: invite.email, newValue: null }],
      });
    });
  }

  /** The open invite behind a link: not_found, invalid_code for a wrong code, secret_expired after 7 days. */
  private async byLink(db: Knex, hashId: string, code: string): Promise<UserInviteModel & { organization: OrganizationModel }> {
    const id = this.hashIds.decode('userInvite', hashId);
    const invite = await UserInviteModel.query(db)
      .withGraphJoined('organization')
      .modify('open')
      .where('user_invites.id', id ?? -1)
      .first();
    if (!invite?.organization) {
      throw new GridportError('not_found', { userInviteHashId: hashId });
    }
    if (!timingSafeEqual(Buffer.from(invite.codeHash, 'hex'), hashCode(code))) {
      throw new GridportError('invalid_code');
    }
    if (invite.expiresAt.getTime() <= Date.now()) {
      throw new GridportError('secret_expired', { expiredAt: isoTime(invite.expiresAt) });
    }
    return invite as UserInviteModel & { organization: OrganizationModel };
  }

  async get(hashId: string, code: string): Promise<UserInviteView> {
    const invite = await this.byLink(this.db, hashId, code);
    return this.present(invite, invite.organization);
  }

  /** The two-factor secret the invitee adds to an authenticator app before converting. */
  async createChallenge(hashId: string, code: string): Promise<{ secret: string; keyuri: string }> {
    const invite = await this.byLink(this.db, hashId, code);
    const secret = newTwoFactorSecret();
    await UserInviteModel.query(this.db)
      .patch({ pendingTwoFactorSecret: this.box.seal(secret), pendingTwoFactorExpiresAt: new Date(Date.now() + twoFactorChallengeMinutes * 60_000) })
      .where('id', invite.id);
    return { secret, keyuri: twoFactorKeyUri(invite.email, secret) };
  }

  /** Turns the invite into a user with two-factor on, and signs them in. */
  async convert(
    hashId: string,
    code: string,
    input: { name: string; password: string; twoFactorCode: string },
  ): Promise<{ session: MintedSession; recoveryCodes: string[] }> {
    const passwordHash = await hashPassword(input.password);
    const created = await this.db.transaction(async (trx) => {
      // One conversion at a time per invite.
      await UserInviteModel.query(trx)
        .findById(this.hashIds.decode('userInvite', hashId) ?? -1)
        .forUpdate();
      const invite = await this.byLink(trx, hashId, code);
      if (!invite.pendingTwoFactorSecret || !invite.pendingTwoFactorExpiresAt) {
        throw new GridportError('2fa_code_required', { reason: 'create a two-factor challenge first' });
      }
      if (invite.pendingTwoFactorExpiresAt.getTime() <= Date.now()) {
        throw new GridportError('secret_expired', { reason: 'the two-factor challenge has lapsed; create a new one' });
      }
      const step = await acceptedTwoFactorStep(this.box.open(invite.pendingTwoFactorSecret), input.twoFactorCode, null);
      if (step === null) {
        throw new GridportError('2fa_code_invalid');
      }
      if (await UserModel.query(trx).modify('withEmail', invite.email).first()) {
        throw new GridportError('user_exists', { emails: [invite.email] });
      }
      const { codes, hashes } = newRecoveryCodes();
      return { invite, step, codes, hashes };
    });
    const actor = systemActor('user invite');
    const user = await write(this.db, actor, async (w) => {
      const inserted = await UserModel.query(w.trx).insertAndFetch({
        organizationId: created.invite.organizationId,
        name: input.name,
        email: created.invite.email,
        rights: created.invite.rights,
        passwordHash,
        twoFactorSecret: created.invite.pendingTwoFactorSecret,
        twoFactorLastStep: created.step,
        recoveryCodeHashes: created.hashes,
      });
      const converted = await UserInviteModel.query(w.trx)
        .patch({ convertedAt: new Date(), userId: inserted.id, pendingTwoFactorSecret: null })
        .where('id', created.invite.id)
        .whereNull('converted_at');
      if (converted === 0) {
        throw new GridportError('not_found', { userInviteHashId: hashId });
      }
      await w.audit({
        objectType: 'users',
        objectId: inserted.id,
        organizationId: inserted.organizationId,
        changeType: 'controllerCreate',
        diff: [
          { type: 'string', name: 'name', oldValue: null, newValue: inserted.name },
          { type: 'string', name: 'email', oldValue: null, newValue: inserted.email },
          { type: 'json', name: 'rights', oldValue: null, newValue: inserted.rights },
          { type: 'hidden', name: 'passwordHash' },
          { type: 'hidden', name: 'twoFactorSecret' },
        ],
      });
      return inserted;
    });
    return { session: await this.sessions.mint(user.id, 'user invite'), recoveryCodes: created.codes };
  }
}
