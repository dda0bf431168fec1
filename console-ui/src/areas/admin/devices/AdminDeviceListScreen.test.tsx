import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { profile, renderConsole, type FakeHandler } from '../../../test-support/render';
import { withListViewport } from '../../../test-support/devices';

withListViewport();

interface GraphqlBody {
  operationName?: string;
  variables?: Record<string, unknown>;
}

const staff: FakeHandler = (call) => {
  if (call.path === '/console-shared/v1/authentication/whoami') {
    return { status: 200, body: profile(['gridport.ops'], 'Olivia Ops') };
  }
  if (call.path === '/graphql' && (call.body as GraphqlBody).operationName === 'AdminDeviceList') {
    const row = {
      __typename: 'Device',
      hashId: 'd7',
      name: 'Harbour battery',
      identifier: 'gw-7',
      isOnline: true,
      inProduction: true,
      isExposedToCustomer: false,
      iccid: '8931',
      deviceGroupHashId: null,
      nominalActivePowerSum: 2_500_000,
      organization: null,
    };
    return { status: 200, body: { data: { devices: { __typename: 'DevicePage', rows: [row], nextPageOffset: null } } } };
  }
  return undefined;
};

describe('the admin device list', () => {
  it('offers every filter of the API and sends the ones filled in', async () => {
    const harness = renderConsole('/admin/devices', staff);
    // The first screen waits for the route check and the area's texts: a busy machine may take seconds.
    expect(await screen.findByText('Harbour battery', {}, { timeout: 10_000 })).toBeInTheDocument();
    const labels = [
      'Name or identifier',
      'Hash id',
      'Group (hash id, any or none)',
      'Organisation hash id',
      'Asset type',
      'Asset identifier',
      'ICCID',
      'IMSI',
      'Active control type',
      'Active control identifier',
    ];
    for (const label of labels) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    await userEvent.type(screen.getByLabelText('Asset type'), 'gotion');
    await userEvent.type(screen.getByLabelText('Group (hash id, any or none)'), 'none');
    await userEvent.type(screen.getByLabelText('ICCID'), ' 8931 ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));

    await waitFor(() => expect(harness.router.state.location.search).toBe('?deviceGroupHashId=none&assetType=gotion&iccid=8931'));
    const lists = () => harness.calls.filter((call) => call.path === '/graphql').map((call) => (call.body as GraphqlBody).variables);
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(lists()).toEqual([
      { offset: null, rowsPerPage: 100 },
      { deviceGroupHashId: 'none', assetType: 'gotion', iccid: '8931', offset: null, rowsPerPage: 100 },
    ]);
    expect(screen.getByText('Harbour battery').closest('a')).toHaveAttribute('href', '/admin/devices/d7/timeline');
    expect(screen.getByText('2.5 MW')).toBeInTheDocument();
  });
});
