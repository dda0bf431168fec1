import { MockSubscriptionLink } from '@apollo/client/testing';
import { act, screen } from '@testing-library/react';
import type { LiveValues_DeviceFragment } from './LiveValues.generated';
import { renderWithApollo, reportEvent } from '../../../test-support/devices';
import { LiveValues } from './LiveValues';
import { useLivePower } from './useLivePower';

const device: LiveValues_DeviceFragment = {
  hashId: 'd1',
  assets: [
    { index: 0, category: 'solar', type: 'demo-solar', identifier: 'pv-roof', nominalActivePower: 100_000 },
    { index: 2, category: 'meter', type: 'demo-meter', identifier: null, nominalActivePower: null },
  ],
};

function LiveHarness() {
  return <LiveValues device={device} readings={useLivePower(device.hashId)} />;
}

describe('live values of the general tab', () => {
  it('shows each asset power as the reports arrive, in W..TW, and keeps the newest reading', async () => {
    const link = new MockSubscriptionLink();
    await renderWithApollo(<LiveHarness />, link);
    expect(screen.getByTestId('live-asset-0')).toHaveTextContent('pv-roof');
    expect(screen.getByTestId('live-asset-2')).toHaveTextContent('demo-meter #2');
    expect(screen.getByTestId('live-power-2')).toHaveTextContent('—');

    const send = (event: ReturnType<typeof reportEvent>) => act(() => link.simulateResult({ result: { data: { deviceReports: event } } }));
    send(reportEvent('meterPower', '2026-11-22T05:00:00.000Z', 2, { activePower: 12_345 }));
    expect(await screen.findByText('12.3 kW')).toBeInTheDocument();
    expect(screen.getByTestId('live-power-2')).toHaveTextContent('12.3 kW');
    expect(screen.getByTestId('live-power-0')).toHaveTextContent('—');

    send(reportEvent('meterPower', '2026-11-22T05:00:05.000Z', 2, { activePower: -1_500_000 }));
    expect(await screen.findByText('-1.5 MW')).toBeInTheDocument();

    // An older report (a backlog sent after a reconnect) does not replace the newer reading.
    send(reportEvent('meterPower', '2026-11-22T04:59:00.000Z', 2, { activePower: 7 }));
    // A report without a power figure, and one about the device, change nothing.
    send(reportEvent('meterPower', '2026-11-22T05:00:06.000Z', 2, { activePower: null }));
    send(reportEvent('signalQuality', '2026-11-22T05:00:07.000Z', null, { rssi: -70 }));
    send(reportEvent('solarPower', '2026-11-22T05:00:08.000Z', 0, { activePower: 999.6 }));
    expect(await screen.findByText('1 kW')).toBeInTheDocument();
    expect(screen.getByTestId('live-power-2')).toHaveTextContent('-1.5 MW');
  });
});
