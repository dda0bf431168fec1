import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { Knex } from 'knex';
import { anyUserRights, type Right } from '../../../contracts/rights';
import { GridportError } from '../../../contracts/errors';
import { limits } from '../../../contracts/limits';
import type { WhoamiView } from '../../../contracts/user';
import type { Actor } from '../../common/context';
import { anonymousActor, requireRights } from '../../common/context';
import type { HashIds } from '../../common/hash-ids';
import { SessionModel } from '../models/session.model';
import { UserModel } from '../models/user.model';
import type { OrganizationService } from './organization.service';

/** The cookie that carries a console session (httpOnly, SameSite=Lax; Secure over TLS). */
export const sessionCookieName = 'gridport_session';

/** The columns a request's session lookup reads (SessionService.lookup), and nothing else. */
export const sessionColumns = [
  'sessions.id',
  'sessions.user_id',
  'sessions.expires_at',
  'sessions.revoked_at',
  'users.organization_id',
  'users.rights',
  'users.name',
] as const;

interface SessionRow {
  id: number | string;
  user_id: number | string;
  expires_at: Date | string;
  revoked_at: Date | string | null;
  organization_id: number | string;
  rights: Right[];
  name: string;
}

interface SessionLookup {
  id: number;
  userId: number;
  expiresAt: Date;
  revokedAt: Date | null;
  organizationId: number;
  rights: Right[];
  name: string;
}

interface SessionClaims {
  sid: number;
  sub: string;
}

export interface MintedSession {
  token: string;
  sessionHashId: string;
  expiresAt: Date;
  /** The signed-in user and their organisation. */
  whoami: WhoamiView;
}

/**
 * Console sessions (spec README, "Sessions"): a signed token naming a session row, so that
 * logout and password reset revoke it. A lapsed token is jwt_expired.
 */
export class SessionService {
  private readonly sign: (claims: SessionClaims) => string;
  private readonly verify: (token: string) => SessionClaims;

  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly organizations: OrganizationService,
    secret: string,
  ) {
    this.sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: limits.sessionLifetimeSeconds * 1000 }) as (claims: SessionClaims) => string;
    this.verify = createVerifier({ key: secret, algorithms: ['HS256'] }) as (token: string) => SessionClaims;
  }

  /** Starts a session for a user; `createdBy` says how (login, saml, command line). */
  async mint(userId: number, createdBy: string): Promise<MintedSession> {
    const expiresAt = new Date(Date.now() + limits.sessionLifetimeSeconds * 1000);
    const session = await SessionModel.query(this.db).insertAndFetch({ userId, expiresAt, createdBy, revokedAt: null });
    return {
      token: this.sign({ sid: session.id, sub: this.hashIds.encode('user', userId) }),
      sessionHashId: this.hashIds.encode('session', session.id),
      expiresAt,
      whoami: await this.profile(userId),
    };
  }

  /** The actor behind a session token; a refused token gives an anonymous actor with the reason. */
  async authenticate(token: string): Promise<Actor> {
    let claims: SessionClaims;
    try {
      claims = this.verify(token);
    } catch (error) {
      const expired = error instanceof TokenError && error.code === TokenError.codes.expired;
      return { ...anonymousActor, rejection: expired ? 'jwt_expired' : 'unauthorized' };
    }
    if (!Number.isSafeInteger(claims.sid) || typeof claims.sub !== 'string') {
      return { ...anonymousActor, rejection: 'unauthorized' };
    }
    const session = await this.lookup(claims.sid);
    // Every claim must agree with the row: a token naming a session of another user (a token from
    // another database, or forged with a leaked secret for a guessed number) is not that session.
    if (!session || session.revokedAt !== null || claims.sub !== this.hashIds.encode('user', session.userId)) {
      return { ...anonymousActor, rejection: 'unauthorized' };
    }
    if (session.expiresAt.getTime() <= Date.now()) {
      return { ...anonymousActor, rejection: 'jwt_expired' };
    }
    return {
      kind: 'user',
      userId: session.userId,
      apiKeyId: null,
      organizationId: session.organizationId,
      rights: session.rights,
      name: session.name,
      sessionId: session.id,
    };
  }

  /**
   * The session row and what an actor needs of its user, in one query of the columns named in
   * sessionColumns: every request reads it, so not the user's password hash, two-factor
   * secrets or recovery codes, and no models.
   */
  private async lookup(sessionId: number): Promise<SessionLookup | null> {
    const row = (await this.db('sessions').join('users', 'users.id', 'sessions.user_id').where('sessions.id', sessionId).first(sessionColumns)) as
      SessionRow | undefined;
    if (!row) {
      return null;
    }
    return {
      id: Number(row.id),
      userId: Number(row.user_id),
      expiresAt: new Date(row.expires_at),
      revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
      organizationId: Number(row.organization_id),
      rights: row.rights,
      name: row.name,
    };
  }

  /** Ends the session the actor acts through. */
  async revoke(actor: Actor): Promise<void> {
    requireRights(actor, anyUserRights);
    if (actor.sessionId === undefined) {
      throw new GridportError('forbidden', { reason: 'only a console session can be ended' });
    }
    await SessionModel.query(this.db).patch({ revokedAt: new Date() }).where('id', actor.sessionId).whereNull('revoked_at');
  }

  /** Who is signed in, and their organisation (console.md section 3, "Whoami result"). */
  async whoami(actor: Actor): Promise<WhoamiView> {
    requireRights(actor, anyUserRights);
    if (actor.kind !== 'user' || actor.userId === null) {
      throw new GridportError('forbidden', { reason: 'only users have a profile' });
    }
    return this.profile(actor.userId);
  }

  private async profile(userId: number): Promise<WhoamiView> {
    const user = await UserModel.query(this.db).findById(userId);
    if (!user) {
      throw new GridportError('unauthorized');
    }
    return {
      user: { hashId: this.hashIds.encode('user', user.id), email: user.email, name: user.name, rights: user.rights },
      organization: await this.organizations.byId(user.organizationId),
    };
  }
}
