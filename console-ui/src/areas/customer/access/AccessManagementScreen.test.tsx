import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { profile, renderConsole, type FakeHandler, type SeenCall } from '../../../test-support/render';
import { partnershipPageSize } from './usePartnerships';

interface GraphqlBody {
  operationName?: string;
  variables?: { kind?: 'OWN' | 'ACCEPTED' | null; offset?: string | null; rowsPerPage?: number };
}

type Right = 'CUSTOMER_READ' | 'CUSTOMER_WRITE';

function partnership(hashId: string, owner: string, partner: string, role: 'VIEWER' | 'OPERATOR', devices: string[] | 'all') {
  return {
    __typename: 'Partnership',
    hashId,
    role,
    description: `${owner} to ${partner}`,
    allDevices: devices === 'all',
    deviceCount: devices === 'all' ? 7 : devices.length,
    deviceHashIds: devices === 'all' ? [] : devices,
    devices: devices === 'all' ? [] : devices.map((device) => ({ __typename: 'PartnershipDevice', hashId: device, name: `Teleport ${device}` })),
    owner: { __typename: 'Organization', hashId: `org-${owner}`, name: owner },
    partner: { __typename: 'Organization', hashId: `org-${partner}`, name: partner },
  };
}

const own = [
  partnership('p1', 'Solar Farms Ltd', 'Grid Traders', 'OPERATOR', 'all'),
  partnership('p2', 'Solar Farms Ltd', 'Meter Data Co', 'VIEWER', ['d7', 'd9']),
];
const accepted = [partnership('p3', 'Wind Park AG', 'Solar Farms Ltd', 'VIEWER', ['d20'])];

/** The customer's session and the GraphQL answers of access management; partnerships paged by `pageRows`. */
function server(rights: Right[], pageRows = partnershipPageSize): FakeHandler {
  return (call) => {
    if (call.path === '/console-shared/v1/authentication/whoami') {
      return { status: 200, body: profile() };
    }
    if (call.path !== '/graphql') {
      return undefined;
    }
    const { operationName, variables = {} } = call.body as GraphqlBody;
    if (operationName === 'MyOrganization') {
      return {
        status: 200,
        body: {
          data: {
            me: {
              __typename: 'Actor',
              kind: 'USER',
              name: 'Casey Customer',
              rights,
              organization: { __typename: 'Organization', hashId: 'o1', name: 'Solar Farms Ltd', type: 'ASSET_OWNER' },
            },
          },
        },
      };
    }
    if (operationName === 'DeviceCounts') {
      return { status: 200, body: { data: { deviceCount: { __typename: 'DeviceCount', totalCount: 12, operationalCount: 10, inactiveCount: 2 } } } };
    }
    if (operationName === 'MyOrganizationMembers') {
      return {
        status: 200,
        body: {
          data: {
            users: {
              __typename: 'UserPage',
              rows: [
                { __typename: 'User', hashId: 'u1', name: 'Casey Customer', email: 'casey@example.com', rights: ['customer.read', 'customer.write'] },
                { __typename: 'User', hashId: 'u2', name: 'Robin Reader', email: 'robin@example.com', rights: ['customer.read'] },
              ],
              nextPageOffset: null,
            },
            userInvites: {
              __typename: 'UserInvitePage',
              rows: [{ __typename: 'UserInvite', hashId: 'i1', email: 'late@example.com', expiresAt: '2020-01-01T00:00:00.000Z' }],
              nextPageOffset: null,
            },
          },
        },
      };
    }
    if (operationName === 'CustomerPartnerships') {
      const rows = variables.kind === 'OWN' ? own : accepted;
      const start = Number(variables.offset ?? 0);
      const end = start + pageRows;
      return {
        status: 200,
        body: {
          data: { partnerships: { __typename: 'PartnershipPage', rows: rows.slice(start, end), nextPageOffset: end < rows.length ? String(end) : null } },
        },
      };
    }
    return undefined;
  };
}

function partnershipCalls(calls: SeenCall[]): GraphqlBody['variables'][] {
  return calls
    .filter((call) => call.path === '/graphql' && (call.body as GraphqlBody).operationName === 'CustomerPartnerships')
    .map((call) => (call.body as GraphqlBody).variables);
}

/** The text of every body row's cells. */
function tableRows(name: string): string[][] {
  const table = screen.getByRole('table', { name });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

describe('access management', () => {
  it('opens on my organisation: its name and type, what the user may do and the teleports they may see', async () => {
    const harness = renderConsole('/access-management', server(['CUSTOMER_READ', 'CUSTOMER_WRITE']));
    expect(await screen.findByTestId('organization-name')).toHaveTextContent('Solar Farms Ltd');
    expect(harness.router.state.location.pathname).toBe('/access-management/my-organization');
    expect(screen.getByTestId('organization-type')).toHaveTextContent('Asset owner');
    expect(
      within(screen.getByTestId('rights'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'See your organisation’s teleports, issues and partnerships, and the teleports partners share with you.',
      'Change what your organisation may change: device outage contacts and issue subscriptions.',
    ]);
    expect(await screen.findByTestId('visible-devices')).toHaveTextContent('Teleports you may see: 12 (operational: 10, not operational: 2)');
  });

  it("lists the organisation's users and open invites read-only, and says Gridport invites and changes rights", async () => {
    renderConsole('/access-management/my-organization', server(['CUSTOMER_READ']));
    expect(await screen.findByText('Robin Reader')).toBeInTheDocument();
    expect(tableRows('Users of your organisation')).toEqual([
      ['Casey Customer', 'casey@example.com', 'Read, Write'],
      ['Robin Reader', 'robin@example.com', 'Read'],
    ]);
    expect(tableRows('Open invites')).toEqual([['late@example.com', expect.stringMatching(/^Expired /)]]);
    expect(screen.getByTestId('members-help')).toHaveTextContent('ask support to invite someone, revoke an invite or change what a user may do');
    expect(screen.queryByRole('button', { name: /invite|revoke/i })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Export CSV' })).toHaveLength(2);
  });

  it('tells a read-only user that they may look but not change', async () => {
    renderConsole('/access-management/my-organization', server(['CUSTOMER_READ']));
    const rights = await screen.findByTestId('rights');
    expect(
      within(rights)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'See your organisation’s teleports, issues and partnerships, and the teleports partners share with you.',
      'You may look but not change anything.',
    ]);
  });

  it('lists the partnerships we own: partner, role and the teleports shared, all or listed with links', async () => {
    const harness = renderConsole('/access-management/my-partnerships', server(['CUSTOMER_READ', 'CUSTOMER_WRITE']));
    expect(await screen.findByText('Grid Traders')).toBeInTheDocument();
    expect(tableRows('My partnerships')).toEqual([
      ['Grid Traders', 'Operator (sees and operates the teleports)', 'All teleports', 'Solar Farms Ltd to Grid Traders'],
      ['Meter Data Co', 'Viewer (sees the teleports)', '2 teleportsTeleport d7Teleport d9', 'Solar Farms Ltd to Meter Data Co'],
    ]);
    expect(screen.getByRole('link', { name: 'Teleport d9' })).toHaveAttribute('href', '/teleports/d9/general');
    expect(partnershipCalls(harness.calls)).toEqual([{ kind: 'OWN', offset: null, rowsPerPage: partnershipPageSize }]);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('lists the partnerships we accepted by their owner, and follows the tabs', async () => {
    const harness = renderConsole('/access-management/my-partnerships', server(['CUSTOMER_READ']));
    await screen.findByText('Grid Traders');
    await userEvent.click(screen.getByRole('link', { name: 'Accepted partnerships' }));
    expect(await screen.findByText('Wind Park AG')).toBeInTheDocument();
    expect(harness.router.state.location.pathname).toBe('/access-management/accepted-partnerships');
    expect(screen.getByRole('columnheader', { name: 'Owner' })).toBeInTheDocument();
    expect(tableRows('Accepted partnerships')).toEqual([
      ['Wind Park AG', 'Viewer (sees the teleports)', '1 teleportsTeleport d20', 'Wind Park AG to Solar Farms Ltd'],
    ]);
    expect(partnershipCalls(harness.calls).map((variables) => variables?.kind)).toEqual(['OWN', 'ACCEPTED']);
  });

  it('loads the next page on "Show more" with the offset the API gave', async () => {
    const harness = renderConsole('/access-management/my-partnerships', server(['CUSTOMER_READ'], 1));
    await screen.findByText('Grid Traders');
    expect(screen.queryByText('Meter Data Co')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Meter Data Co')).toBeInTheDocument();
    expect(partnershipCalls(harness.calls)).toEqual([
      { kind: 'OWN', offset: null, rowsPerPage: partnershipPageSize },
      { kind: 'OWN', offset: '1', rowsPerPage: partnershipPageSize },
    ]);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('says so when there are no partnerships', async () => {
    renderConsole('/access-management/accepted-partnerships', (call) => {
      if (call.path === '/graphql' && (call.body as GraphqlBody).operationName === 'CustomerPartnerships') {
        return { status: 200, body: { data: { partnerships: { __typename: 'PartnershipPage', rows: [], nextPageOffset: null } } } };
      }
      return server(['CUSTOMER_READ'])(call);
    });
    expect(await screen.findByText('No partnerships.')).toBeInTheDocument();
  });
});
