import { useMessages } from '../../../i18n/messages';
import type { GeneralTab_DeviceFragment } from './GeneralTab.generated';
import { Panel } from '../../../devices/DeviceFrame';
import { chartHours, DevicePowerChart } from './DevicePowerChart';
import { LiveValues } from './LiveValues';
import { useLivePower } from './useLivePower';

/** The general tab: the live power of each asset, and a chart of the last hours kept live. */
export function GeneralTab({ device }: { device: GeneralTab_DeviceFragment }) {
  const t = useMessages();
  const readings = useLivePower(device.hashId);
  return (
    <>
      <Panel>
        <h2>{t('device.live.title')}</h2>
        <LiveValues device={device} readings={readings} />
      </Panel>
      <Panel>
        <h2>{t('device.chart.title', { hours: chartHours })}</h2>
        <DevicePowerChart device={device} readings={readings} />
      </Panel>
    </>
  );
}
