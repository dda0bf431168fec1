import { HttpLink } from '@apollo/client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithApollo } from '../../../test-support/devices';
import { fakeFetch } from '../../../test-support/render';
import { IssueDeviceFilter } from './IssueDeviceFilter';

const aDevice = (hashId: string, name: string, identifier: string) => ({
  __typename: 'Device',
  hashId,
  name,
  identifier,
  isOnline: true,
  inProduction: true,
  isExposedToCustomer: true,
  iccid: null,
  deviceGroupHashId: null,
  nominalActivePowerSum: 0,
  organization: { __typename: 'Organization', hashId: 'o1', name: 'Harbour' },
});

const devices = [aDevice('d7', 'Harbour battery', 'gw-7'), aDevice('d8', 'Harbour heat pump', 'gw-8'), aDevice('d9', 'Dune solar', 'gw-9')];

/** The admin device list as the API answers it (over HTTP): by hash id, or by part of the name; every request kept. */
function deviceList() {
  const asked: Record<string, unknown>[] = [];
  const { fetch } = fakeFetch((call) => {
    const { variables = {} } = call.body as { variables?: { filter?: string; hashId?: string } };
    asked.push(variables);
    const { filter, hashId } = variables;
    const rows = devices.filter((device) =>
      hashId === undefined ? device.name.toLowerCase().includes((filter ?? '').toLowerCase()) : device.hashId === hashId,
    );
    return { status: 200, body: { data: { devices: { __typename: 'DevicePage', rows, nextPageOffset: null } } } };
  });
  return { link: new HttpLink({ uri: '/graphql', fetch }), asked };
}

/** The filter in a form that keeps its value, as the issue list does; every change kept. */
function Harness({ initial, changes }: { initial?: string; changes: (string | undefined)[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <IssueDeviceFilter
        label="Device"
        value={value}
        onChange={(next) => {
          changes.push(next);
          setValue(next);
        }}
      />
      <output aria-label="value">{value ?? ''}</output>
    </>
  );
}

describe('the device filter of the staff issue list', () => {
  it('finds devices by name with the admin device list, keeps the chosen one as its hash id, names it, and clears', async () => {
    const { link, asked } = deviceList();
    const changes: (string | undefined)[] = [];
    await renderWithApollo(<Harness changes={changes} />, link, 'admin');
    expect(screen.getByText('Any device')).toBeInTheDocument();
    // Nothing is asked before a search is typed.
    expect(asked).toEqual([]);

    await userEvent.type(screen.getByLabelText('Device: search devices by name'), 'harbour');
    const found = await screen.findByRole('list', { name: 'Device: devices found' });
    await waitFor(() => expect(within(found).getAllByRole('button')).toHaveLength(2));
    expect(asked).toContainEqual({ filter: 'harbour', rowsPerPage: 8 });
    await userEvent.click(within(found).getByRole('button', { name: /Harbour battery \(gw-7\)/ }));

    expect(changes).toEqual(['d7']);
    expect(screen.getByLabelText('value')).toHaveTextContent('d7');
    expect(within(found).getByRole('button', { name: /Harbour battery/ })).toHaveAttribute('aria-pressed', 'true');
    await screen.findByText('Chosen: Harbour battery (gw-7)');
    expect(asked).toContainEqual({ hashId: 'd7', rowsPerPage: 1 });

    await userEvent.click(screen.getByRole('button', { name: 'Clear the device' }));
    expect(changes).toEqual(['d7', undefined]);
    expect(screen.getByLabelText('value')).toBeEmptyDOMElement();
    expect(screen.getByText('Any device')).toBeInTheDocument();
  });

  it('names a device chosen in the address, shows a hash id no device has as itself, and says when no device matches', async () => {
    const { link } = deviceList();
    const first = await renderWithApollo(<Harness initial="d9" changes={[]} />, link, 'admin');
    await screen.findByText('Chosen: Dune solar (gw-9)');
    first.unmount();

    await renderWithApollo(<Harness initial="gone1" changes={[]} />, link, 'admin');
    await screen.findByText('Chosen: gone1');
    await userEvent.type(screen.getByLabelText('Device: search devices by name'), 'windmill');
    await screen.findByText('No device matches.');
  });
});
