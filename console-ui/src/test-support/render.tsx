import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';
import type { WhoamiView } from '../../../contracts/user';
import type { Right } from '../../../contracts/rights';
import { App } from '../App';
import { ConfirmProvider } from '../components/ConfirmDialog';
import { SnackbarProvider } from '../components/Snackbars';
import { MessagesProvider, MessagesStore, type AreaMessageLoader } from '../i18n/messages';
import { adminMessages } from '../i18n/messages/admin';
import { customerMessages } from '../i18n/messages/customer';
import { createConsoleServices, type ConsoleServices } from '../shell/console-services';
import { consoleRoutes } from '../shell/routes';
import { theme } from '../theme/theme';

/** One call the fake server saw. */
export interface SeenCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
}

/** Answers a call; undefined for a path it does not know (404 not_found). */
export type FakeHandler = (call: SeenCall) => FakeAnswer | Promise<FakeAnswer> | undefined;

/**
 * A fetch that answers from `handler` as Gridport would ({ key, details } bodies), and
 * records every call. Only what the console reads of a Response is given.
 */
export function fakeFetch(handler: FakeHandler): { fetch: typeof fetch; calls: SeenCall[] } {
  const calls: SeenCall[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://console.test');
    const call: SeenCall = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const answer = (await handler(call)) ?? { status: 404, body: { key: 'not_found' } };
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    const response = {
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      headers: new Headers({ 'content-type': 'application/json' }),
      text: async () => text,
      json: async () => (text === '' ? undefined : (JSON.parse(text) as unknown)),
    };
    return response as unknown as Response;
  };
  return { fetch: fetchFn, calls };
}

/** A server without a session: whoami answers 401 unauthorized; other paths are not known (404). */
export const signedOut: FakeHandler = (call) =>
  call.path === '/console-shared/v1/authentication/whoami' ? { status: 401, body: { key: 'unauthorized' } } : undefined;

export function profile(rights: Right[] = ['customer.read', 'customer.write'], name = 'Casey Customer'): WhoamiView {
  return {
    user: { hashId: 'u1', email: 'casey@example.com', name, rights },
    organization: { hashId: 'o1', name: 'Solar Farms Ltd' } as WhoamiView['organization'],
  };
}

export interface ConsoleHarness extends RenderResult {
  services: ConsoleServices;
  router: ReturnType<typeof createMemoryRouter>;
  calls: SeenCall[];
  left: string[];
  reloads: number[];
}

/** The whole console at `path`, against a fake server; `left` collects pages it left for. */
export interface ConsoleOptions {
  fetchRelease?: () => Promise<{ version: string }>;
  loadMessages?: AreaMessageLoader;
}

export function renderConsole(path: string, handler: FakeHandler, options: ConsoleOptions = {}): ConsoleHarness {
  const { fetch, calls } = fakeFetch(handler);
  const left: string[] = [];
  const reloads: number[] = [];
  let router: ReturnType<typeof createMemoryRouter> | null = null;
  const services = createConsoleServices({
    currentPath: () => (router === null ? path : `${router.state.location.pathname}${router.state.location.search}`),
    builtVersion: '1.0.0',
    fetch,
    leave: (url) => left.push(url),
    reload: () => reloads.push(Date.now()),
    fetchRelease: options.fetchRelease ?? (async () => ({ version: '1.0.0' })),
    loadMessages: options.loadMessages ?? (async (area) => (area === 'admin' ? adminMessages : customerMessages)),
    subscriptions: false,
  });
  const memoryRouter = createMemoryRouter(consoleRoutes(services), { initialEntries: [path] });
  router = memoryRouter;
  const result = render(<App services={services} router={memoryRouter} />);
  return { ...result, services, router: memoryRouter, calls, left, reloads };
}

/** A component with the providers every screen has (theme, texts, snackbars, confirmations), outside any route. */
export function renderWithProviders(node: ReactNode, store: MessagesStore = new MessagesStore(async () => ({}))): RenderResult {
  return render(
    <ThemeProvider theme={theme}>
      <MessagesProvider store={store}>
        <SnackbarProvider>
          <ConfirmProvider>{node}</ConfirmProvider>
        </SnackbarProvider>
      </MessagesProvider>
    </ThemeProvider>,
  );
}

/** A memory router around a single element, for components that use router hooks. */
/** Navigates inside act(), so React applies the route's render before the test goes on. */
export async function navigate(harness: ConsoleHarness, to: string): Promise<void> {
  await act(() => harness.router.navigate(to));
}

export function inRouter(node: ReactNode): ReactNode {
  const router = createMemoryRouter([{ path: '*', element: node }]);
  return <RouterProvider router={router} />;
}
