import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { withListViewport } from '../../../test-support/devices';
import { renderConsole } from '../../../test-support/render';
import { anAdminOrganization, graphqlData as answer, graphqlRefusal as refusal, staffServer, variablesOf } from '../../../test-support/graphql';

withListViewport();

/** A server with one organisation (o7) for a staff user with `rights`; unknown hash ids are not_found. */
function server(
  rights: Right[],
  { createRefusal, organization: overrides, failedReads = 0 }: { createRefusal?: unknown; organization?: Record<string, unknown>; failedReads?: number } = {},
) {
  let organization = anAdminOrganization(overrides);
  let failuresLeft = failedReads;
  return staffServer(
    rights,
    (operationName, variables) => {
      switch (operationName) {
        case 'AdminOrganizationList':
          return answer({ organizations: { __typename: 'OrganizationPage', rows: [organization], nextPageOffset: null } });
        case 'AdminOrganization':
          if (failuresLeft > 0) {
            failuresLeft -= 1;
            return { status: 500, body: { key: 'internal_server_error' } };
          }
          return variables.hashId === organization.hashId ? answer({ organization }) : refusal('not_found');
        case 'CreateOrganization':
          return createRefusal === undefined
            ? answer({ createOrganization: { __typename: 'Organization', hashId: 'o9' } })
            : refusal('payload_invalid', createRefusal);
        case 'UpdateOrganization':
          organization = { ...organization, ...(variables.input as object), updatedAt: '2026-11-02T09:00:00.000Z' };
          return answer({ updateOrganization: organization });
        case 'ObjectAuditLog':
          return answer({ auditLog: { __typename: 'AuditLogPage', rows: [], nextPageOffset: null } });
        default:
          return undefined;
      }
    },
    'Sam Staff',
  );
}

/** The text of a Blob (jsdom's Blob has no text()). */
function textOf(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob ?? new Blob([]));
  });
}

/** Hovers the anchor around a disabled control (which takes no pointer events) and reads its hint. */
async function expectNoPermission(control: HTMLElement): Promise<void> {
  expect(control).toBeDisabled();
  const anchor = control.closest('span');
  expect(anchor).not.toBeNull();
  await userEvent.hover(anchor ?? control);
  expect(await screen.findByRole('tooltip')).toHaveTextContent('No permission');
}

describe('the admin organisation list', () => {
  it('keeps the name and type filters in the address, sends them to the API and offers the CSV export', async () => {
    const harness = renderConsole('/admin/organizations', server(['gridport.sales']));
    expect(await screen.findByText('Harbour Energy BV', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Harbour Energy BV').closest('a')).toHaveAttribute('href', '/admin/organizations/o7/general');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Add organisation' })).toBeEnabled();

    await userEvent.type(screen.getByLabelText('Name'), 'harbour');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(harness.router.state.location.search).toBe('?filter=harbour'));
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Energy trader');
    await waitFor(() => expect(harness.router.state.location.search).toBe('?filter=harbour&type=energy-trader'));
    await waitFor(() => expect(variablesOf(harness.calls, 'AdminOrganizationList')).toHaveLength(3));
    expect(variablesOf(harness.calls, 'AdminOrganizationList')).toEqual([
      { offset: null, rowsPerPage: 100 },
      { filter: 'harbour', offset: null, rowsPerPage: 100 },
      { filter: 'harbour', type: 'ENERGY_TRADER', offset: null, rowsPerPage: 100 },
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Add organisation' }));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/organizations/add'));
  });

  it('exports every matching organisation as CSV, with the exact creation time', async () => {
    const blobs: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:organisations';
    });
    URL.revokeObjectURL = jest.fn();
    const harness = renderConsole('/admin/organizations?type=energy-trader', server(['gridport.employee']));
    expect(await screen.findByText('Harbour Energy BV', {}, { timeout: 10_000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    // FileReader decodes the byte order mark away.
    expect(await textOf(blobs[0])).toBe(
      'Name,Type,Provider,Invoice frequency,Created\r\nHarbour Energy BV,Energy trader,No,Monthly,2026-11-01T09:00:00.000Z\r\n',
    );
    expect(variablesOf(harness.calls, 'AdminOrganizationList').at(-1)).toEqual({ type: 'ENERGY_TRADER', offset: null, rowsPerPage: 500 });
  });

  it('reads the filters of a link and disables Add for a user who may not create organisations', async () => {
    const harness = renderConsole('/admin/organizations?type=installer&filter=north', server(['gridport.employee']));
    expect(await screen.findByText('Harbour Energy BV', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('north');
    expect(screen.getByLabelText('Type')).toHaveValue('installer');
    expect(variablesOf(harness.calls, 'AdminOrganizationList')).toEqual([{ filter: 'north', type: 'INSTALLER', offset: null, rowsPerPage: 100 }]);
    await expectNoPermission(screen.getByRole('button', { name: 'Add organisation' }));
  });
});

describe('the add organisation screen', () => {
  it('checks the fields as the server does before sending anything', async () => {
    const harness = renderConsole('/admin/organizations/add', server(['gridport.ops']));
    const create = await screen.findByRole('button', { name: 'Create organisation' }, { timeout: 10_000 });
    expect(screen.getByLabelText('Name')).toHaveAttribute('maxLength', '100');
    await userEvent.type(screen.getByLabelText('Name'), '   ');
    await userEvent.type(screen.getByLabelText('Runtime (months)'), '0');
    await userEvent.click(create);

    await waitFor(() => expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Required', 'Required', 'Required', 'At least 1']));
    expect(variablesOf(harness.calls, 'CreateOrganization')).toEqual([]);
  });

  it('creates the organisation and opens its general tab', async () => {
    const harness = renderConsole('/admin/organizations/add', server(['gridport.sales']));
    const create = await screen.findByRole('button', { name: 'Create organisation' }, { timeout: 10_000 });
    await userEvent.type(screen.getByLabelText('Name'), '  Northwind Solar  ');
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Asset owner');
    await userEvent.selectOptions(screen.getByLabelText('Invoice frequency'), 'Daily');
    await userEvent.click(screen.getByLabelText('Require a legal entity per device'));
    await userEvent.type(screen.getByLabelText('Charge period (months)'), '3');
    await userEvent.type(screen.getByLabelText('Runtime (months)'), '36');
    await userEvent.click(create);

    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/organizations/o9/general'));
    expect(variablesOf(harness.calls, 'CreateOrganization')).toEqual([
      {
        input: {
          name: 'Northwind Solar',
          type: 'ASSET_OWNER',
          invoiceCustomerReference: null,
          invoiceFrequency: 'DAILY',
          requireLegalEntityPerDevice: true,
          requireCustomerReferencePerDevice: false,
          subscriptionDefaults: { chargePeriod: 3, runtime: 36 },
        },
      },
    ]);
  });

  it('shows the server’s payload_invalid issues at their fields, and those of no field under the form', async () => {
    renderConsole(
      '/admin/organizations/add',
      server(['gridport.sales'], {
        createRefusal: [
          { path: 'name', message: 'name is taken by a test' },
          { path: 'pricing', message: 'pricing is a required field' },
        ],
      }),
    );
    const create = await screen.findByRole('button', { name: 'Create organisation' }, { timeout: 10_000 });
    await userEvent.type(screen.getByLabelText('Name'), 'Northwind Solar');
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Installer');
    await userEvent.click(create);
    expect(await screen.findByText('name is taken by a test')).toBeInTheDocument();
    expect(screen.getByTestId('organization-refusals')).toHaveTextContent('pricing is a required field pricing');
  });

  it('asks before unsaved changes are left for another screen', async () => {
    const harness = renderConsole('/admin/organizations/add', server(['gridport.sales']));
    await screen.findByRole('button', { name: 'Create organisation' }, { timeout: 10_000 });
    await userEvent.type(screen.getByLabelText('Name'), 'Northwind Solar');
    await userEvent.click(screen.getByRole('link', { name: 'Back to the organisations' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard changes?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(harness.router.state.location.pathname).toBe('/admin/organizations/add');
    expect(screen.getByLabelText('Name')).toHaveValue('Northwind Solar');

    await userEvent.click(screen.getByRole('link', { name: 'Back to the organisations' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Discard changes?' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(harness.router.state.location.pathname).toBe('/admin/organizations'));
  });
});

describe('an organisation’s frame and general tab', () => {
  it('saves only the changed fields and shows what was saved', async () => {
    const harness = renderConsole('/admin/organizations/o7/general', server(['gridport.developer']));
    const save = await screen.findByRole('button', { name: 'Save organisation' }, { timeout: 10_000 });
    expect(screen.getByRole('heading', { level: 1, name: 'Harbour Energy BV' })).toBeInTheDocument();
    expect(screen.getByTestId('object-subtitle')).toHaveTextContent('Energy trader');
    expect(screen.getByRole('link', { name: 'API keys' })).toHaveAttribute('href', '/admin/organizations/o7/api-keys');
    expect(screen.getByRole('list', { name: 'History' })).toBeInTheDocument();
    expect(save).toBeDisabled();

    const name = screen.getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Harbour Energy Group');
    await userEvent.click(screen.getByLabelText('Require a customer reference per device'));
    await userEvent.click(save);

    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Harbour Energy Group' })).toBeInTheDocument());
    expect(variablesOf(harness.calls, 'UpdateOrganization')).toEqual([
      { hashId: 'o7', input: { name: 'Harbour Energy Group', requireCustomerReferencePerDevice: true } },
    ]);
    // The saved values are the form's new start: nothing left to save.
    await waitFor(() => expect(save).toBeDisabled());
    expect(screen.getByLabelText('Name')).toHaveValue('Harbour Energy Group');
  });

  it('shows a user who may not update organisations every field and the save disabled, with the hint', async () => {
    renderConsole('/admin/organizations/o7/general', server(['gridport.employee']));
    const save = await screen.findByRole('button', { name: 'Save organisation' }, { timeout: 10_000 });
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.getByLabelText('Type')).toBeDisabled();
    expect(screen.getByLabelText('Require a legal entity per device')).toBeDisabled();
    await expectNoPermission(save);
  });

  it('reads the provider organisation as such and never sends it a type', async () => {
    const harness = renderConsole(
      '/admin/organizations/o7/general',
      server(['gridport.sales'], { organization: { name: 'Gridport', type: null, isProvider: true } }),
    );
    const save = await screen.findByRole('button', { name: 'Save organisation' }, { timeout: 10_000 });
    expect(screen.getByTestId('object-subtitle')).toHaveTextContent('Provider organisation (Gridport)');
    expect(screen.getByTestId('organization-provider-type')).toHaveTextContent('Provider organisation (Gridport)');
    expect(screen.queryByLabelText('Type')).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Invoice frequency'), 'Daily');
    await userEvent.click(save);
    await waitFor(() => expect(variablesOf(harness.calls, 'UpdateOrganization')).toEqual([{ hashId: 'o7', input: { invoiceFrequency: 'DAILY' } }]));
  });

  it('says so when the organisation does not exist, instead of loading forever', async () => {
    renderConsole('/admin/organizations/nope/general', server(['gridport.ops']));
    expect(await screen.findByRole('heading', { level: 1, name: 'Organisation not found' }, { timeout: 10_000 })).toBeInTheDocument();
    const state = await screen.findByText('There is no organisation nope. It may have been removed, or the link is wrong.', {}, { timeout: 10_000 });
    expect(within(state.closest('[role="alert"]') ?? document.body).getByRole('link', { name: 'Back to the organisations' })).toHaveAttribute(
      'href',
      '/admin/organizations',
    );
  });

  it('offers another try when the organisation could not be read', async () => {
    renderConsole('/admin/organizations/o7/general', server(['gridport.ops'], { failedReads: 1 }));
    expect(await screen.findByText('The organisation could not be loaded.', {}, { timeout: 10_000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbour Energy BV' })).toBeInTheDocument();
  });
});
