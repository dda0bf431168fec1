import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Right } from '../../../../../contracts/rights';
import { anAdminDevice } from '../../../test-support/devices';
import { adminOrganizationAnswer, graphqlData as answer, staffServer, variablesOf } from '../../../test-support/graphql';
import { renderConsole } from '../../../test-support/render';

const billingDevice = {
  ...anAdminDevice({
    organizationHashId: 'o7',
    organization: {
      __typename: 'Organization',
      hashId: 'o7',
      name: 'Harbour Energy BV',
      subscriptionDefaults: { __typename: 'SubscriptionDefaults', chargePeriod: 3, runtime: 24 },
    },
  }),
  subscription: { usage: true, chargePeriod: 1, runtime: 12, afterExpiration: null, startAt: '2026-01-01T00:00:00.000Z' },
  subscriptionChargedUntil: '2026-12-01T00:00:00.000Z',
  invoiceCustomerReference: null,
  billingLegalEntity: null,
  billingUsage: {
    __typename: 'DeviceBillingUsage',
    units: { 'asset.solar': 2, cellular: 1 },
    unitCount: 3,
    monthlyPriceBeforeDiscount: 60.11,
    monthlyPrice: 60.11,
  },
};

function server(rights: Right[]) {
  return staffServer(rights, (operationName, variables) => {
    if (operationName === 'AdminDeviceSettings' || operationName === 'AdminDeviceBilling') {
      return answer({ device: billingDevice });
    }
    if (operationName === 'BillingCharges') {
      return answer({ billingCharges: { __typename: 'BillingChargePage', rows: [], nextPageOffset: null } });
    }
    if (operationName === 'AddBillingCharge') {
      return answer({ addBillingCharge: { __typename: 'BillingChargeCreated', billingChargeHashId: 'c1' } });
    }
    if (operationName === 'AdminOrganization') {
      return adminOrganizationAnswer(variables);
    }
    if (operationName === 'BillingLegalEntities') {
      return answer({ billingLegalEntities: { __typename: 'BillingLegalEntityPage', rows: [], nextPageOffset: null } });
    }
    return undefined;
  });
}

describe('the device billing tab', () => {
  it('shows the usage by rate key and the monthly price', async () => {
    renderConsole('/admin/devices/d7/billing/subscription', server(['gridport.ops']));
    const usage = await screen.findByRole('table', { name: 'Billing usage' }, { timeout: 10_000 });
    expect(within(usage).getByText('asset.solar')).toBeInTheDocument();
    expect(screen.getAllByText('€ 60,11')).toHaveLength(2);
  });

  it('adds a charge typed in euro as cents, after refusing an amount that is none', async () => {
    const harness = renderConsole('/admin/devices/d7/billing/add-charge', server(['gridport.ops']));
    const dialog = await screen.findByRole('dialog', { name: 'Add a charge' }, { timeout: 10_000 });
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Gateway');
    await userEvent.type(within(dialog).getByLabelText('Amount in euro'), '12,345');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add charge' }));
    expect(await within(dialog).findByText('An amount in euro, such as 12,50 (negative credits)')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Amount in euro'));
    await userEvent.type(within(dialog).getByLabelText('Amount in euro'), '12,5');
    await userEvent.selectOptions(within(dialog).getByLabelText('Ledger account'), 'consultancy');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add charge' }));
    await screen.findByText('The charge was added.');
    expect(variablesOf(harness.calls, 'AddBillingCharge')).toEqual([
      {
        input: {
          organizationHashId: 'o7',
          deviceHashId: 'd7',
          source: 'manual',
          description: 'Gateway',
          charge: 1250,
          ledgerAccount: 'CONSULTANCY',
          billableAt: null,
        },
      },
    ]);
  });

  it('removes the subscription only once confirmed', async () => {
    const withRemoval = staffServer(['gridport.ops'], (operationName, variables, call) => {
      if (operationName === 'UpdateDeviceInvoiceDetails') {
        return answer({ updateDeviceInvoiceDetails: { ...billingDevice, subscription: null } });
      }
      return server(['gridport.ops'])(call);
    });
    const harness = renderConsole('/admin/devices/d7/billing/subscription', withRemoval);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove subscription' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the subscription?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(variablesOf(harness.calls, 'UpdateDeviceInvoiceDetails')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove subscription' }));
    const again = await screen.findByRole('dialog', { name: 'Remove the subscription?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Remove subscription' }));
    await screen.findByText('Saved.');
    expect(variablesOf(harness.calls, 'UpdateDeviceInvoiceDetails')).toEqual([{ hashId: 'd7', input: { subscription: null } }]);
  });

  it('adds the next page of charges after the rows shown', async () => {
    const charge = (hashId: string, description: string) => ({
      __typename: 'BillingCharge',
      hashId,
      device: { __typename: 'BillingReference', hashId: 'd7', name: 'Harbour gateway' },
      source: 'manual',
      reason: 'manuallyAdded',
      description,
      billableAt: '2026-03-01T00:00:00.000Z',
      from: null,
      to: null,
      charge: 1250,
      ledgerAccount: 'hardware',
      invoiceHashId: null,
      invoicePublicId: null,
      refunded: false,
      refundOfHashId: null,
    });
    const paged = staffServer(['gridport.ops'], (operationName, variables, call) => {
      if (operationName === 'BillingCharges') {
        const second = (variables as { offset?: string | null }).offset === 'page-2';
        return answer({
          billingCharges: {
            __typename: 'BillingChargePage',
            rows: [second ? charge('c2', 'Second page charge') : charge('c1', 'First page charge')],
            nextPageOffset: second ? null : 'page-2',
          },
        });
      }
      return server(['gridport.ops'])(call);
    });
    renderConsole('/admin/devices/d7/billing/charges', paged);
    expect(await screen.findByText('First page charge', undefined, { timeout: 10_000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Second page charge')).toBeInTheDocument();
    expect(screen.getByText('First page charge')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('leaves Sales without the add-charge button, with the no-permission hint', async () => {
    renderConsole('/admin/devices/d7/billing/charges', server(['gridport.sales']));
    expect(await screen.findByRole('button', { name: 'Add charge' }, { timeout: 10_000 })).toBeDisabled();
  });
});

describe('the legal entities of an organisation', () => {
  it('asks a German company for its tax number before sending anything', async () => {
    const harness = renderConsole('/admin/organizations/o7/billing/legal-entities', server(['gridport.sales']));
    await userEvent.click(await screen.findByRole('button', { name: 'Add legal entity' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'New legal entity' });
    await userEvent.type(within(dialog).getByLabelText('Company name'), 'Sonnen GmbH');
    await userEvent.type(within(dialog).getByLabelText('Country (ISO code, such as NL)'), 'DE');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A tax number is required for EU countries other than the Netherlands.')).toBeInTheDocument();
    expect(variablesOf(harness.calls, 'CreateBillingLegalEntity')).toEqual([]);
  });
});
