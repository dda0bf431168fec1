import styled from 'styled-components';
import { formatPower } from '../../../format/power';
import type { LiveValues_DeviceFragment } from './LiveValues.generated';
import { useMessages } from '../../../i18n/messages';
import type { LiveReading } from './useLivePower';

/** How an asset is named on screen: its identifier, else its type and index. */
export function assetLabel(asset: Pick<LiveValues_DeviceFragment['assets'][number], 'identifier' | 'type' | 'index'>): string {
  return asset.identifier ?? `${asset.type} #${asset.index}`;
}

/** The latest power of each asset of the device, as its live reports bring it. */
export function LiveValues({ device, readings }: { device: LiveValues_DeviceFragment; readings: ReadonlyMap<number, LiveReading> }) {
  const t = useMessages();
  if (device.assets.length === 0) {
    return <p>{t('device.live.noAssets')}</p>;
  }
  return (
    <Values aria-label={t('device.live.title')}>
      {device.assets.map((asset) => {
        const reading = readings.get(asset.index);
        return (
          <Value key={asset.index} data-testid={`live-asset-${asset.index}`}>
            <dt>{assetLabel(asset)}</dt>
            <dd>
              <Figure data-testid={`live-power-${asset.index}`}>{reading === undefined ? '—' : formatPower(reading.watts)}</Figure>
              <When>{reading === undefined ? t('device.live.waiting') : new Date(reading.at).toLocaleTimeString()}</When>
            </dd>
          </Value>
        );
      })}
    </Values>
  );
}

const Values = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(160px, 1fr));
  gap: 12px;
  margin: 0;
`;

const Value = styled.div`
  padding: 12px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
    overflow-wrap: anywhere;
  }
  dd {
    margin: 4px 0 0;
  }
`;

const Figure = styled.span`
  display: block;
  font-size: 22px;
  font-weight: ${({ theme }) => theme.fontWeights.semibold};
`;

const When = styled.span`
  font-size: 12px;
  color: ${({ theme }) => theme.colors.textMuted};
`;
