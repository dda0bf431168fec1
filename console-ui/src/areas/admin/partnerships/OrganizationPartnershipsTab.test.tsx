import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { adminOrganizationAnswer, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole, type FakeHandler } from '../../../test-support/render';

const organization = (hashId: string, name: string) => ({ __typename: 'Organization', hashId, name });
const device = (hashId: string, name: string) => ({ __typename: 'PartnershipDevice', hashId, name });

const listed = {
  __typename: 'Partnership',
  hashId: 'p1',
  role: 'VIEWER',
  description: 'Monitoring contract',
  allDevices: false,
  deviceCount: 2,
  devices: [device('d1', 'North roof'), device('d2', 'South roof')],
  owner: organization('o1', 'Solar Farms Ltd'),
  partner: organization('o2', 'Grid Traders'),
};
const sharingAll = {
  ...listed,
  hashId: 'p2',
  role: 'OPERATOR',
  description: '',
  allDevices: true,
  deviceCount: 12,
  devices: [],
  owner: organization('o3', 'Wind Park AG'),
  partner: organization('o1', 'Solar Farms Ltd'),
};

/** A staff session with `rights`; createPartnership answers `createAnswer`. */
function server(
  rights: Right[],
  createAnswer: (input: unknown) => unknown = () => ({ data: { createPartnership: { __typename: 'Partnership', hashId: 'p9' } } }),
): FakeHandler {
  return staffServer(rights, (operationName, variables) => {
    switch (operationName) {
      case 'AdminOrganization':
        return adminOrganizationAnswer(variables, { name: 'Solar Farms Ltd' });
      case 'OrganizationPartnerships':
        return { status: 200, body: { data: { partnerships: { __typename: 'PartnershipPage', rows: [listed, sharingAll], nextPageOffset: null } } } };
      case 'PartnershipsTabOrganization':
        return { status: 200, body: { data: { organization: organization('o1', 'Solar Farms Ltd') } } };
      case 'OrganizationPickerOrganizations':
        return {
          status: 200,
          body: {
            data: {
              organizations: {
                __typename: 'OrganizationPage',
                rows: [
                  { ...organization('o1', 'Solar Farms Ltd'), isProvider: false },
                  { ...organization('o4', 'Meter Data Co'), isProvider: false },
                ],
              },
            },
          },
        };
      case 'DevicePickerDevices':
        return {
          status: 200,
          body: { data: { devices: { __typename: 'DevicePage', rows: [{ __typename: 'Device', hashId: 'd1', name: 'North roof', identifier: 'gp-0001' }] } } },
        };
      case 'CreatePartnership':
        return { status: 200, body: createAnswer(variables.input) };
      case 'UpdatePartnership':
        return { status: 200, body: { data: { updatePartnership: { __typename: 'Partnership', hashId: 'p1' } } } };
      case 'DeletePartnership':
        return { status: 200, body: { data: { deletePartnership: true } } };
      default:
        return undefined;
    }
  });
}

const path = '/admin/organizations/o1/partnerships';

async function tableRows() {
  const table = await screen.findByRole('table', { name: 'Partnerships' }, { timeout: 10_000 });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 4)
        .map((cell) => cell.textContent),
    );
}

describe('the partnerships tab of an organisation', () => {
  it('lists the partnerships on both sides, owner to partner, with the shared devices by name', async () => {
    const harness = renderConsole(path, server(['gridport.employee']));
    expect(await tableRows()).toEqual([
      ['Solar Farms Ltd → Grid Traders', 'Viewer (sees the devices)', 'Listed (2): North roof, South roof', 'Monitoring contract'],
      ['Wind Park AG → Solar Farms Ltd', 'Operator (sees and steers the devices)', 'All devices', ''],
    ]);
    expect(variablesOf(harness.calls, 'OrganizationPartnerships')).toEqual([{ organizationHashId: 'o1', offset: null, rowsPerPage: 500 }]);
  });

  it('exports the partnerships as CSV, owner and partner apart, the devices by name', async () => {
    const blobs: Blob[] = [];
    const createObjectURL = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:partnerships';
    });
    // jsdom has no object URLs and does not follow a download link: the file is read from its blob.
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderConsole(path, server(['gridport.employee']));
    await tableRows();
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    click.mockRestore();

    const [csv] = blobs;
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(csv ?? new Blob());
    });
    expect(text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Owner,Partner,Role,Devices,Description',
      'Solar Farms Ltd,Grid Traders,Viewer (sees the devices),"Listed (2): North roof, South roof",Monitoring contract',
      'Wind Park AG,Solar Farms Ltd,Operator (sees and steers the devices),All devices,',
      '',
    ]);
  });

  it('creates a partnership with a partner found by name and devices from the picker', async () => {
    const harness = renderConsole(path, server(['gridport.ops']));
    await tableRows();
    await userEvent.click(screen.getByRole('button', { name: 'Create partnership' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a partnership' });

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Search organisations by name' }), 'a');
    // The owner is not offered as its own partner.
    const found = await within(dialog).findByRole('list', { name: 'Organisations found' });
    expect(
      within(found)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Meter Data Co']);
    await userEvent.click(within(found).getByRole('button', { name: 'Meter Data Co' }));
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'OPERATOR');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Trading');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Choose at least one device, or share all devices.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Search devices by name or identifier' }), 'north');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'North roof (gp-0001)' }));
    expect(within(within(dialog).getByRole('list', { name: 'Chosen devices' })).getByText('North roof')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(variablesOf(harness.calls, 'DevicePickerDevices').at(-1)).toEqual({ organizationHashId: 'o1', filter: 'north' });
    expect(variablesOf(harness.calls, 'CreatePartnership')).toEqual([
      {
        input: {
          ownerOrganizationHashId: 'o1',
          partnerOrganizationHashId: 'o4',
          role: 'OPERATOR',
          description: 'Trading',
          allDevices: false,
          deviceHashIds: ['d1'],
        },
      },
    ]);
    // The list is read again with the new partnership.
    await waitFor(() => expect(variablesOf(harness.calls, 'OrganizationPartnerships')).toHaveLength(2));
  });

  it('shows already_configured in the dialog, which stays open', async () => {
    renderConsole(
      path,
      server(['gridport.developer'], () => ({ data: null, errors: [{ message: 'already_configured', extensions: { code: 'already_configured' } }] })),
    );
    await tableRows();
    await userEvent.click(screen.getByRole('button', { name: 'Create partnership' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a partnership' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Search organisations by name' }), 'meter');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Meter Data Co' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Share all devices of Solar Farms Ltd, also those added later' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('These two organisations already have a partnership: edit that one instead.');
  });

  it("shows the server refusing a device that is not the owner's under the device picker", async () => {
    renderConsole(
      path,
      server(['gridport.ops'], () => ({
        data: null,
        errors: [
          {
            message: 'payload_invalid',
            extensions: { code: 'payload_invalid', details: [{ path: 'deviceHashIds[0]', message: 'device d1 is not a device of the owner organisation' }] },
          },
        ],
      })),
    );
    await tableRows();
    await userEvent.click(screen.getByRole('button', { name: 'Create partnership' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a partnership' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Search organisations by name' }), 'meter');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Meter Data Co' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Search devices by name or identifier' }), 'north');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'North roof (gp-0001)' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    const picker = within(dialog).getByRole('group', { name: 'Devices to share' });
    expect(await within(picker).findByRole('alert')).toHaveTextContent('device d1 is not a device of the owner organisation');
  });

  it('edits the role and devices of a partnership, sending what the dialog holds', async () => {
    const harness = renderConsole(path, server(['gridport.ops']));
    await tableRows();
    const [firstRow] = within(screen.getByRole('table', { name: 'Partnerships' }))
      .getAllByRole('row')
      .slice(1);
    await userEvent.click(within(firstRow ?? document.body).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the partnership' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove South roof' }));
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Role' }), 'OPERATOR');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(variablesOf(harness.calls, 'UpdatePartnership')).toEqual([
      { hashId: 'p1', input: { role: 'OPERATOR', description: 'Monitoring contract', allDevices: false, deviceHashIds: ['d1'] } },
    ]);
  });

  it('deletes a partnership only once confirmed', async () => {
    const harness = renderConsole(path, server(['gridport.ops']));
    await tableRows();
    const [firstRow] = within(screen.getByRole('table', { name: 'Partnerships' }))
      .getAllByRole('row')
      .slice(1);
    await userEvent.click(within(firstRow ?? document.body).getByRole('button', { name: 'Delete' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Delete the partnership?' });
    expect(confirmation).toHaveTextContent('Grid Traders loses access to the devices Solar Farms Ltd shares with it, at once.');
    expect(variablesOf(harness.calls, 'DeletePartnership')).toEqual([]);
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete partnership' }));

    await waitFor(() => expect(variablesOf(harness.calls, 'DeletePartnership')).toEqual([{ hashId: 'p1' }]));
  });

  it('disables create, edit and delete for an employee, with the no-permission tooltip', async () => {
    renderConsole(path, server(['gridport.employee']));
    await tableRows();
    const create = screen.getByRole('button', { name: 'Create partnership' });
    expect(create).toBeDisabled();
    for (const name of ['Edit', 'Delete']) {
      for (const button of screen.getAllByRole('button', { name })) {
        expect(button).toBeDisabled();
      }
    }
    await userEvent.hover(create.parentElement ?? create);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
    // Reading the history needs no write right.
    expect(screen.getAllByRole('button', { name: 'History' })[0]).toBeEnabled();
  });
});
