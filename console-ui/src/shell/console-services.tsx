import { createContext, useContext, type ReactNode } from 'react';
import type { ApolloClient } from '@apollo/client';
import { createApolloClient } from '../api/apollo';
import { identityApi, samlLoginUrl, type IdentityApi } from '../api/identity-api';
import { RestClient } from '../api/rest';
import { fetchRelease, type FetchRelease } from '../components/VersionBanner';
import { MessagesStore, type AreaMessageLoader } from '../i18n/messages';
import { SessionStore } from '../session/session-store';
import { areaOf } from './area';

/** What the console's screens share: one REST client, one Apollo client, the session, the texts. */
export interface ConsoleServices {
  rest: RestClient;
  identity: IdentityApi;
  apollo: ApolloClient;
  session: SessionStore;
  messages: MessagesStore;
  /** Leaves the single-page app for a page the server answers (SAML sign-in, reload after logout). */
  leave: (url: string) => void;
  builtVersion: string;
  fetchRelease: FetchRelease;
  reload: () => void;
}

export interface ConsoleServiceOptions {
  builtVersion: string;
  fetch?: typeof fetch;
  leave?: (url: string) => void;
  reload?: () => void;
  fetchRelease?: FetchRelease;
  loadMessages?: AreaMessageLoader;
  /** Subscriptions over graphql-ws (off in component tests). */
  subscriptions?: boolean;
  /** The page being shown (the browser's location by default; a memory router's in tests). */
  currentPath?: () => string;
}

/** Where someone signed out of `path` signs in again: SAML for the admin area, the login screen otherwise. */
export function loginUrlFor(path: string): string {
  return areaOf(path) === 'admin' ? samlLoginUrl(path) : `/login?redirect=${encodeURIComponent(path)}`;
}

export function createConsoleServices(options: ConsoleServiceOptions): ConsoleServices {
  const rest = new RestClient(options.fetch);
  const identity = identityApi(rest);
  const leave = options.leave ?? ((url: string) => window.location.assign(url));
  const session = new SessionStore({
    api: identity,
    leave,
    loginUrlFor,
    currentPath: options.currentPath ?? (() => `${window.location.pathname}${window.location.search}`),
  });
  rest.onFailure((error) => session.noticeFailure(error));
  const apollo = createApolloClient({ onFailure: (error) => session.noticeFailure(error), subscriptions: options.subscriptions, fetch: options.fetch });
  return {
    rest,
    identity,
    apollo,
    session,
    messages: new MessagesStore(options.loadMessages),
    leave,
    builtVersion: options.builtVersion,
    fetchRelease: options.fetchRelease ?? fetchRelease,
    reload: options.reload ?? (() => window.location.reload()),
  };
}

const ServicesContext = createContext<ConsoleServices | null>(null);

export function ConsoleServicesProvider({ services, children }: { services: ConsoleServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useConsoleServices(): ConsoleServices {
  const services = useContext(ServicesContext);
  if (services === null) {
    throw new Error('useConsoleServices needs a ConsoleServicesProvider');
  }
  return services;
}
