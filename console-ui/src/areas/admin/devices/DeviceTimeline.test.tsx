import { MockSubscriptionLink } from '@apollo/client/testing';
import { act, screen, waitFor } from '@testing-library/react';
import { renderWithApollo, reportEvent } from '../../../test-support/devices';
import { DeviceTimeline } from './DeviceTimeline';

describe('the device timeline', () => {
  it('shows the live reports newest first, keeping only the newest ones', async () => {
    const link = new MockSubscriptionLink();
    await renderWithApollo(<DeviceTimeline hashId="d1" limit={2} />, link, 'admin');
    expect(screen.getByText('No reports since this page opened; they appear here as they arrive.')).toBeInTheDocument();
    const types = () => screen.getAllByTestId('timeline-item').map((item) => item.querySelector('strong')?.textContent);
    const send = (event: ReturnType<typeof reportEvent>) => act(() => link.simulateResult({ result: { data: { deviceReports: event } } }));

    send(reportEvent('meterPower', '2026-11-22T05:00:00.000Z', 2, { activePower: 10 }));
    send(reportEvent('ack', '2026-11-22T05:00:01.000Z', null, { messageId: 'm1', messageType: 'debugPing', payload: 'hello' }));
    await waitFor(() => expect(screen.getAllByTestId('timeline-item')).toHaveLength(2));
    expect(screen.getAllByTestId('timeline-item')[0]).toHaveTextContent('"payload":"hello"');
    expect(screen.getAllByTestId('timeline-item')[0]).toHaveTextContent('device');
    expect(screen.getAllByTestId('timeline-item')[1]).toHaveTextContent('asset 2');

    send(reportEvent('error', '2026-11-22T05:00:02.000Z', null, { code: 'loop_crashed', message: 'boom' }));
    await waitFor(() => expect(types()).toEqual(['error', 'ack']));
    expect(screen.getByText('The newest 2 reports are kept.')).toBeInTheDocument();
  });
});
