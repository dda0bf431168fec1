import type { LoginInput } from '../../../contracts/login';
import type { WhoamiView } from '../../../contracts/user';
import { isStaffRight } from '../../../contracts/rights';
import { ApiError, isSessionFailure } from '../api/api-error';
import type { IdentityApi } from '../api/identity-api';

/** The session states of console.md section 4. */
export type SessionStatus = 'unknown' | 'loggedIn' | 'loggedOut';

export interface SessionState {
  status: SessionStatus;
  profile: WhoamiView | null;
  /** The last failed identity check that was not a 401 (the status stays as it was). */
  failure: ApiError | null;
  /** Set while the session-expired message shows, before the logout redirect. */
  expired: boolean;
}

/** How long the session-expired message shows before the logout redirect (console.md section 9). */
export const sessionExpiryRedirectMs = 3000;

export interface SessionDependencies {
  api: IdentityApi;
  /** Leaves the app for a server-side page (the login redirect after a logout). */
  leave: (url: string) => void;
  /** Where a signed-out user of the current page signs in again. */
  loginUrlFor: (currentPath: string) => string;
  currentPath: () => string;
  setTimer?: (callback: () => void, ms: number) => unknown;
}

/** The session: identity check, login, logout, and expiry (console.md section 4). */
export class SessionStore {
  private state: SessionState = { status: 'unknown', profile: null, failure: null, expired: false };
  private readonly listeners = new Set<() => void>();
  private checking: Promise<SessionState> | null = null;

  constructor(private readonly deps: SessionDependencies) {}

  getState = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get isStaff(): boolean {
    return this.state.profile?.user.rights.some(isStaffRight) ?? false;
  }

  /**
   * The identity check: loggedIn with the profile on success, loggedOut on a 401, and
   * otherwise the status kept with the failure remembered. Parallel checks share one call.
   */
  check(): Promise<SessionState> {
    if (this.checking === null) {
      this.checking = this.deps.api
        .whoami()
        .then(
          (profile) => this.set({ status: 'loggedIn', profile, failure: null }),
          (error: unknown) => {
            if (error instanceof ApiError && error.kind === 'unauthorized') {
              return this.set({ status: 'loggedOut', profile: null, failure: null });
            }
            if (error instanceof ApiError) {
              return this.set({ failure: error });
            }
            throw error;
          },
        )
        .finally(() => {
          this.checking = null;
        });
    }
    return this.checking;
  }

  /** The state after a check, checking only when the status is not known yet. */
  async ensureKnown(): Promise<SessionState> {
    return this.state.status === 'unknown' ? this.check() : this.state;
  }

  async login(input: LoginInput): Promise<WhoamiView> {
    const profile = await this.deps.api.login(input);
    this.set({ status: 'loggedIn', profile, failure: null, expired: false });
    return profile;
  }

  /** Logout: ends the session on the server, clears the profile, loggedOut. */
  async logout(): Promise<void> {
    try {
      await this.deps.api.logout();
    } finally {
      this.set({ status: 'loggedOut', profile: null, failure: null });
    }
  }

  /**
   * A failed call: a session failure while logged in shows the session-expired message and,
   * 3 s later, performs the logout redirect. Anything else is left to the caller.
   */
  noticeFailure(error: ApiError): void {
    if (this.state.status !== 'loggedIn' || this.state.expired || !isSessionFailure(error)) {
      return;
    }
    this.set({ expired: true });
    const setTimer = this.deps.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    setTimer(() => void this.logoutRedirect(), sessionExpiryRedirectMs);
  }

  /** The server-side logged-out redirect: the state goes back to unknown first. */
  async logoutRedirect(): Promise<void> {
    const target = this.deps.loginUrlFor(this.deps.currentPath());
    this.set({ status: 'unknown', profile: null, failure: null });
    try {
      await this.deps.api.logout();
    } catch {
      // The session is already gone on the server; the redirect is what matters.
    }
    this.deps.leave(target);
  }

  private set(change: Partial<SessionState>): SessionState {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) {
      listener();
    }
    return this.state;
  }
}
