import { SAML, ValidateInResponseTo, type CacheItem, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { providerOrganizationId } from '../../../contracts/limits';
import { isStaffRight } from '../../../contracts/rights';
import { devIdentityProviderIssuer } from './dev-identity-provider';
import type { MintedSession, SessionService } from './session.service';
import type { UserService } from './user.service';

/** Staff sign-in with SAML, as configured (docs/operations.md, "Staff sign-in (SAML)"). */
export interface SamlSettings {
  /** The identity provider's single sign-on URL; null uses the development identity provider. */
  entryPoint: string | null;
  /** The identity provider's signing certificate (PEM or base64). */
  idpCert: string | null;
  /** Gridport's entity id as a service provider; also the audience it accepts. */
  issuer: string;
  /** Where the identity provider posts its response; null derives it from each request's origin. */
  callbackUrl: string | null;
  /** Whether the development identity provider runs (only without entryPoint). */
  devIdentityProvider: boolean;
  /** Where the development identity provider keeps its key pair; null keeps it in memory. */
  devIdentityProviderKeyFile: string | null;
}

export const defaultSamlSettings: SamlSettings = {
  entryPoint: null,
  idpCert: null,
  issuer: 'gridport',
  callbackUrl: null,
  devIdentityProvider: true,
  devIdentityProviderKeyFile: null,
};

export const samlPaths = {
  login: '/console-admin/v1/saml2/login',
  acs: '/console-admin/v1/saml2/acs',
  devIdentityProvider: '/dev-idp/sso',
} as const;

/** Where a sign-in returns when the relay state is missing or not a path of this site. */
export const defaultRelayState = '/admin/devices';

/** A relay state is honoured only as a same-origin path: it starts with one '/' and has no backslash. */
export function safeRelayState(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || /[\r\n]/.test(value)) {
    return defaultRelayState;
  }
  return value;
}

/** How long an AuthnRequest id is remembered for its InResponseTo check, and the clock skew allowed. */
const requestLifetimeMs = 10 * 60_000;
const clockSkewMs = 60_000;

/**
 * Remembers the ids of AuthnRequests sent, in the database so that every node shares them: a
 * response must answer one of ours, within the request lifetime, and only once.
 */
export class SamlRequestIds implements CacheProvider {
  constructor(private readonly db: Knex) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    const createdAt = new Date();
    await this.db('saml_requests')
      .where('created_at', '<', new Date(createdAt.getTime() - requestLifetimeMs))
      .delete();
    const saved = await this.db('saml_requests').insert({ id: key, value, created_at: createdAt }).onConflict('id').ignore().returning('id');
    return saved.length === 0 ? null : { value, createdAt: createdAt.getTime() };
  }

  async getAsync(key: string): Promise<string | null> {
    const row = (await this.db('saml_requests')
      .where('id', key)
      .where('created_at', '>=', new Date(Date.now() - requestLifetimeMs))
      .first('value')) as { value: string } | undefined;
    return row?.value ?? null;
  }

  async removeAsync(key: string | null): Promise<string | null> {
    if (key === null) {
      return null;
    }
    const [row] = (await this.db('saml_requests').where('id', key).delete().returning('value')) as { value: string }[];
    return row?.value ?? null;
  }

  /**
   * The ids as one sign-in sees them: its first look at an id takes it out of the table (one
   * delete), and later looks of the same sign-in find it in memory. So of two posts of one
   * response, at once and on any nodes, only one finds its request; node-saml's own get-then-remove
   * would let both through.
   */
  forSignIn(): CacheProvider {
    const taken = new Map<string, string>();
    return {
      saveAsync: (key, value) => this.saveAsync(key, value),
      getAsync: async (key) => {
        const known = taken.get(key);
        if (known !== undefined) {
          return known;
        }
        const [row] = (await this.db('saml_requests')
          .where('id', key)
          .where('created_at', '>=', new Date(Date.now() - requestLifetimeMs))
          .delete()
          .returning('value')) as { value: string }[];
        if (row === undefined) {
          return null;
        }
        taken.set(key, row.value);
        return row.value;
      },
      removeAsync: async (key) => {
        const known = key === null ? undefined : taken.get(key);
        if (key !== null) {
          taken.delete(key);
        }
        return known ?? (await this.removeAsync(key));
      },
    };
  }
}

export interface SamlSignIn {
  session: MintedSession;
  relayState: string;
}

/** The email a validated profile asserts: the email attribute, else an email-shaped NameID. */
function profileEmail(profile: Profile | null): string | null {
  if (!profile) {
    return null;
  }
  const candidates = [profile.email, profile.mail, profile.nameID];
  const email = candidates.find((value): value is string => typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value.trim()));
  return email?.trim() ?? null;
}

/**
 * Staff sign-in through a SAML identity provider (console.md sections 2, 7 and 8): the
 * AuthnRequest redirect, and the validation of the signed response posted back. The
 * development identity provider is checked here exactly as an outside one, with its certificate.
 */
export class SamlService {
  /** `idpCert` is the configured provider's certificate, or the development provider's. */
  constructor(
    private readonly settings: SamlSettings,
    private readonly idpCert: string | null,
    private readonly users: UserService,
    private readonly sessions: SessionService,
    private readonly requestIds: SamlRequestIds,
  ) {}

  get entityId(): string {
    return this.settings.issuer;
  }

  /** Where the identity provider posts its response, for a request that came to `origin`. */
  callbackUrl(origin: string): string {
    return this.settings.callbackUrl ?? `${origin}${samlPaths.acs}`;
  }

  private saml(origin: string, key: 'saml2_redirect_validation_failed' | 'saml2_post_validation_failed', requestIds: CacheProvider = this.requestIds): SAML {
    const entryPoint = this.settings.entryPoint ?? (this.settings.devIdentityProvider ? `${origin}${samlPaths.devIdentityProvider}` : null);
    if (entryPoint === null || this.idpCert === null) {
      throw new GridportError(key, { reason: 'no identity provider is configured' });
    }
    return new SAML({
      entryPoint,
      idpCert: this.idpCert,
      idpIssuer: this.settings.entryPoint === null ? devIdentityProviderIssuer : undefined,
      issuer: this.settings.issuer,
      audience: this.settings.issuer,
      callbackUrl: this.callbackUrl(origin),
      // Either the response or its assertion must carry a valid signature (node-saml checks both).
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: false,
      acceptedClockSkewMs: clockSkewMs,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: requestLifetimeMs,
      cacheProvider: requestIds,
      disableRequestedAuthnContext: true,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    });
  }

  /** The identity provider's sign-in URL (HTTP-Redirect binding) carrying an AuthnRequest and the relay state. */
  async loginUrl(relayState: unknown, origin: string): Promise<string> {
    const saml = this.saml(origin, 'saml2_redirect_validation_failed');
    try {
      return await saml.getAuthorizeUrlAsync(safeRelayState(relayState), undefined, {});
    } catch (error) {
      throw new GridportError('saml2_redirect_validation_failed', { reason: (error as Error).message });
    }
  }

  /**
   * Validates a posted SAMLResponse and starts a console session for the staff user it names.
   * Only a user of the provider organisation holding a staff right signs in this way.
   */
  async signIn(body: Record<string, unknown>, origin: string): Promise<SamlSignIn> {
    const samlResponse = body.SAMLResponse;
    if (typeof samlResponse !== 'string' || samlResponse.trim() === '') {
      throw new GridportError('saml2_data_missing', { field: 'SAMLResponse' });
    }
    const saml = this.saml(origin, 'saml2_post_validation_failed', this.requestIds.forSignIn());
    let profile: Profile | null;
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      throw new GridportError('saml2_post_validation_failed', { reason: (error as Error).message });
    }
    const email = profileEmail(profile);
    if (email === null) {
      throw new GridportError('saml2_profile_is_missing');
    }
    const user = await this.users.findByEmail(email);
    if (!user || user.organizationId !== providerOrganizationId || !user.rights.some(isStaffRight)) {
      throw new GridportError('forbidden', { email });
    }
    return { session: await this.sessions.mint(user.id, 'saml'), relayState: safeRelayState(body.RelayState) };
  }
}
