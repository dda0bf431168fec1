import { gql } from '@apollo/client';
import { createConsoleServices } from '../shell/console-services';
import { fakeFetch, type SeenCall } from '../test-support/render';

const me = gql`
  query ShellMe {
    me {
      name
    }
  }
`;

function services(answer: (call: SeenCall) => { status: number; body?: unknown }) {
  const { fetch, calls } = fakeFetch((call) => answer(call));
  return { services: createConsoleServices({ builtVersion: '1', fetch, subscriptions: false, leave: () => undefined }), calls };
}

describe('the Apollo client', () => {
  // The session-expiry redirect is a 3 s timer; fake timers keep it from outliving the test.
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  });
  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  it('posts operations to /graphql and reads the data', async () => {
    const { services: console, calls } = services(() => ({ status: 200, body: { data: { me: { __typename: 'Actor', name: 'Casey' } } } }));
    const result = await console.apollo.query({ query: me });
    expect(result.data).toEqual({ me: { __typename: 'Actor', name: 'Casey' } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/graphql', body: { operationName: 'ShellMe', variables: {} } });
  });

  it('hands a refused session on /graphql (HTTP 401) to the session, which expires while signed in', async () => {
    const { services: console } = services((call) =>
      call.path === '/console-shared/v1/authentication/whoami'
        ? { status: 200, body: { user: { rights: [] }, organization: {} } }
        : { status: 401, body: { key: 'jwt_expired' } },
    );
    await console.session.check();
    await expect(console.apollo.query({ query: me })).rejects.toBeDefined();
    expect(console.session.getState()).toMatchObject({ status: 'loggedIn', expired: true });
  });

  it('hands a GraphQL error to the session by its extensions.code', async () => {
    const { services: console } = services((call) =>
      call.path === '/console-shared/v1/authentication/whoami'
        ? { status: 200, body: { user: { rights: [] }, organization: {} } }
        : { status: 200, body: { data: null, errors: [{ message: 'The session has expired.', extensions: { code: 'jwt_expired' } }] } },
    );
    await console.session.check();
    await expect(console.apollo.query({ query: me })).rejects.toBeDefined();
    expect(console.session.getState().expired).toBe(true);
  });
});
