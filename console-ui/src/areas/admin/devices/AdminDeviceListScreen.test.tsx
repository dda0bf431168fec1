import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { graphqlData, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole } from '../../../test-support/render';
import { withListViewport } from '../../../test-support/devices';

withListViewport();

const staff = staffServer(
  ['gridport.ops'],
  (operationName) => {
    if (operationName === 'AdminDeviceList') {
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
        billingUsage: { __typename: 'DeviceBillingUsage', unitCount: 3, monthlyPrice: 60.11 },
      };
      return graphqlData({ devices: { __typename: 'DevicePage', rows: [row], nextPageOffset: null } });
    }
    return undefined;
  },
  'Olivia Ops',
);

describe('the admin device list', () => {
  it('offers every filter of the API and sends the ones filled in', async () => {
    const harness = renderConsole('/admin/devices', staff);
    // The first screen waits for the route check and the area's texts: a busy machine may take seconds.
    expect(await screen.findByText('Harbour battery', {}, { timeout: 10_000 })).toBeInTheDocument();
    // The billing usage column: units and the monthly price after the tier discount.
    expect(screen.getByText('3 units · € 60,11/month')).toBeInTheDocument();
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
    const lists = () => variablesOf(harness.calls, 'AdminDeviceList');
    await waitFor(() => expect(lists()).toHaveLength(2));
    expect(lists()).toEqual([
      { offset: null, rowsPerPage: 100 },
      { deviceGroupHashId: 'none', assetType: 'gotion', iccid: '8931', offset: null, rowsPerPage: 100 },
    ]);
    expect(screen.getByText('Harbour battery').closest('a')).toHaveAttribute('href', '/admin/devices/d7/timeline');
    expect(screen.getByText('2.5 MW')).toBeInTheDocument();
  });
});
