import { CombinedGraphQLErrors } from '@apollo/client';
import { MessagesStore } from '../i18n/messages';
import { loginUrlFor } from '../shell/console-services';
import { fakeFetch } from '../test-support/render';
import { ApiError, apiErrorFromResponse, isSessionFailure } from './api-error';
import { apiErrorOfApollo } from './apollo';
import { snackbarForError } from './error-snackbar';
import { queryString, RestClient } from './rest';

const store = new MessagesStore(async () => ({}));
const t = store.text.bind(store);

describe('sorting failed calls (console.md section 8)', () => {
  it.each([
    [401, { key: 'jwt_expired' }, 'unauthorized', 'jwt_expired'],
    [401, { key: 'too_many_failed_attempts' }, 'unauthorized', 'too_many_failed_attempts'],
    [403, { key: 'in_production' }, 'forbidden', 'in_production'],
    [404, { key: 'not_found', details: { deviceHashId: 'x' } }, 'notFound', 'not_found'],
    [413, { key: 'payload_too_large' }, 'payloadTooLarge', 'payload_too_large'],
    [429, { key: 'rate_limit_exceeded_for_dangerous_actions' }, 'rateLimited', 'rate_limit_exceeded_for_dangerous_actions'],
    [409, { key: 'already_configured' }, 'response', 'already_configured'],
    [400, { key: 'invalid_config', details: { issues: [] } }, 'response', 'invalid_config'],
    [500, { key: 'internal_server_error' }, 'response', 'internal_server_error'],
    [502, '<html>bad gateway</html>', 'unknownResponse', null],
    [418, { key: 'teapot' }, 'unknownResponse', null],
    [400, { key: 'something_new' }, 'response', null],
  ])('%p %j is %p with key %p', (status, body, kind, key) => {
    const error = apiErrorFromResponse(status, body);
    expect([error.kind, error.key, error.status]).toEqual([kind, key, status]);
  });

  it('keeps the details of the answer', () => {
    expect(apiErrorFromResponse(400, { key: 'asset_identifiers_are_not_unique', details: { offendingIdentifier: 'pv-1' } }).details).toEqual({
      offendingIdentifier: 'pv-1',
    });
  });

  it.each([
    ['unauthorized', true],
    ['jwt_expired', true],
    ['invalid_credentials', false],
    ['2fa_code_required', false],
    ['too_many_failed_attempts', false],
  ])('a 401 %p is a session failure: %p', (key, failure) => {
    expect(isSessionFailure(apiErrorFromResponse(401, { key }))).toBe(failure);
  });

  it('reads the catalogue key of a GraphQL error from extensions.code, and an HTTP failure of /graphql by its status', () => {
    const graphql = new CombinedGraphQLErrors({
      errors: [{ message: 'The configuration is invalid.', extensions: { code: 'invalid_config', details: { issues: ['x'] } } }],
    });
    expect(apiErrorOfApollo(graphql)).toMatchObject({ kind: 'response', status: 400, key: 'invalid_config', details: { issues: ['x'] } });
    const forbidden = new CombinedGraphQLErrors({ errors: [{ message: 'No.', extensions: { code: 'forbidden' } }] });
    expect(apiErrorOfApollo(forbidden)).toMatchObject({ kind: 'forbidden', key: 'forbidden' });
    expect(apiErrorOfApollo(new Error('something else'))).toBeNull();
  });
});

describe('snackbars for failed calls', () => {
  it.each([
    [new ApiError('rateLimited', 429, 'too_many_requests'), 'error', 'Too many requests. Please wait a moment and try again.'],
    [new ApiError('unauthorized', 401, 'too_many_failed_attempts'), 'error', 'Too many requests. Please wait a moment and try again.'],
    [new ApiError('notFound', 404, 'not_found'), 'error', 'This could not be found. It may have been removed.'],
    [new ApiError('forbidden', 403, 'forbidden'), 'error', 'You do not have permission to do this.'],
    [new ApiError('payloadTooLarge', 413, 'payload_too_large'), 'error', 'This is too large to send.'],
    [new ApiError('response', 500, 'internal_server_error'), 'error', 'Something went wrong on our side (unknown error). Please try again.'],
    [new ApiError('response', 503, 'balena_unavailable'), 'error', 'Something went wrong on our side (unknown error). Please try again.'],
    [new ApiError('response', 409, 'already_resolved'), 'error', 'The request failed: The issue is already resolved.'],
    [new ApiError('unknownResponse', 418, null), 'error', 'Something unexpected went wrong (unknown error).'],
    [new ApiError('request', 0, null), 'error', 'Gridport could not be reached. Check your connection and try again.'],
  ])('%p shows a %p snackbar %p', (error, tone, message) => {
    expect(snackbarForError(error, t)).toEqual({ tone, message });
  });

  it('shows nothing for a cancelled call', () => {
    expect(snackbarForError(new ApiError('cancelled', 0, null), t)).toBeNull();
  });
});

describe('the REST client', () => {
  it('builds the query string from the values that are not null', () => {
    expect(queryString({ filter: 'north', offset: null, rowsPerPage: 50, status: undefined, any: false })).toBe('?filter=north&rowsPerPage=50&any=false');
    expect(queryString({ offset: null })).toBe('');
  });

  it('sends JSON with the session cookie and reads the answer', async () => {
    const requests: RequestInit[] = [];
    const { fetch } = fakeFetch(() => ({ status: 200, body: { totalCount: 3 } }));
    const client = new RestClient(async (input, init) => {
      requests.push(init ?? {});
      return fetch(input, init);
    });
    await expect(client.request('/console/v1/device/count', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ totalCount: 3 });
    expect(requests[0]).toMatchObject({
      method: 'POST',
      credentials: 'include',
      body: '{"a":1}',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
    });
  });

  it('counts the calls in flight for the loading bar', async () => {
    let answer: () => void = () => undefined;
    const { fetch } = fakeFetch(() => new Promise((resolve) => (answer = () => resolve({ status: 204 }))));
    const client = new RestClient(fetch);
    const seen: number[] = [];
    client.onPending((pending) => seen.push(pending));
    const call = client.request('/console/v1/issue');
    expect(client.inFlight).toBe(1);
    await Promise.resolve();
    answer();
    await call;
    expect(seen).toEqual([1, 0]);
  });

  it('sorts a network failure and a cancelled call', async () => {
    const offline = new RestClient(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(offline.request('/x')).rejects.toMatchObject({ kind: 'request', status: 0 });
    const controller = new AbortController();
    controller.abort();
    const cancelled = new RestClient(async () => Promise.reject(new DOMException('aborted', 'AbortError')));
    await expect(cancelled.request('/x', { signal: controller.signal })).rejects.toMatchObject({ kind: 'cancelled' });
  });

  it('tells its failure listeners before throwing', async () => {
    const { fetch } = fakeFetch(() => ({ status: 401, body: { key: 'jwt_expired' } }));
    const client = new RestClient(fetch);
    const failures: string[] = [];
    client.onFailure((error) => failures.push(`${error.kind}:${error.key ?? ''}`));
    await expect(client.request('/x')).rejects.toBeInstanceOf(ApiError);
    expect(failures).toEqual(['unauthorized:jwt_expired']);
  });
});

describe('signing in again', () => {
  it('sends the admin area to the SAML sign-in with the page as relay state, the rest to the login screen', () => {
    expect(loginUrlFor('/admin/devices/d1/timeline')).toBe(`/console-admin/v1/saml2/login?relayState=${encodeURIComponent('/admin/devices/d1/timeline')}`);
    expect(loginUrlFor('/teleports?status=operational')).toBe(`/login?redirect=${encodeURIComponent('/teleports?status=operational')}`);
  });
});
