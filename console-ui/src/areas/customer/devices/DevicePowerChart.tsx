import { useQuery } from '@apollo/client/react';
import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import styled from 'styled-components';
import { extendSeries, type SeriesPoint } from '../../../charts/series';
import { PowerChartDocument, type DevicePowerChart_DeviceFragment } from './DevicePowerChart.generated';
import { useMessages } from '../../../i18n/messages';
import { assetLabel } from './LiveValues';
import { powerReportType } from './power-reports';
import type { LiveReading } from './useLivePower';

// uPlot draws on a canvas and reads the screen's pixel ratio when loaded: it comes with the
// first chart shown, not with the console's first page.
const PowerChart = lazy(async () => ({ default: (await import('../../../charts/PowerChart')).PowerChart }));

/** The hours the chart looks back, and about how many points of history it asks for. */
export const chartHours = 6;
const historyPoints = 360;
/** Live points kept beyond the history (a report every few seconds for the window's length is far fewer). */
const liveLimit = 10_000;

/** The power of one asset over the last hours: history aggregated by the server, extended by live reports. */
export function DevicePowerChart({ device, readings }: { device: DevicePowerChart_DeviceFragment; readings: ReadonlyMap<number, LiveReading> }) {
  const t = useMessages();
  const selectId = useId();
  const charted = device.assets.filter((asset) => powerReportType(asset.category) !== null);
  // A meter shows what the site draws or feeds in: the natural first choice.
  const [chosen, setChosen] = useState<number | null>(() => (charted.find((asset) => asset.category === 'meter') ?? charted[0])?.index ?? null);
  const asset = charted.find((candidate) => candidate.index === chosen);
  const reportType = asset === undefined ? null : powerReportType(asset.category);
  // The window is fixed when the asset is chosen; live points extend it to the right.
  const [range] = useState(() => {
    const to = new Date();
    return { from: new Date(to.getTime() - chartHours * 3_600_000), to };
  });
  const history = useQuery(PowerChartDocument, {
    skip: asset === undefined || reportType === null,
    variables: {
      hashId: device.hashId,
      reportType: reportType ?? '',
      assetIndex: asset?.index ?? null,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      points: historyPoints,
    },
  });
  const [live, setLive] = useState<{ asset: number | null; points: SeriesPoint[] }>({ asset: chosen, points: [] });
  const reading = chosen === null ? undefined : readings.get(chosen);
  useEffect(() => {
    if (reading === undefined) {
      return;
    }
    const point = { t: reading.at / 1000, value: reading.watts };
    setLive((current) => {
      const points = current.asset === chosen ? current.points : [];
      if (points.some((known) => known.t === point.t)) {
        return current;
      }
      return { asset: chosen, points: [...points, point].slice(-liveLimit) };
    });
  }, [reading, chosen]);

  const points = useMemo(() => {
    const past = (history.data?.deviceMeasurements ?? []).map((point) => ({ t: Date.parse(point.at) / 1000, value: point.avg }));
    const ownLive = live.asset === chosen ? live.points : [];
    return extendSeries(past, ownLive, Date.now() / 1000 - chartHours * 3600);
  }, [history.data, live, chosen]);

  if (charted.length === 0) {
    return null;
  }
  return (
    <div>
      <Controls>
        <label htmlFor={selectId}>{t('device.chart.asset')}</label>
        <select id={selectId} value={chosen ?? ''} onChange={(event) => setChosen(Number(event.target.value))}>
          {charted.map((candidate) => (
            <option key={candidate.index} value={candidate.index}>
              {assetLabel(candidate)}
            </option>
          ))}
        </select>
      </Controls>
      {points.length === 0 && !history.loading ? <p>{t('device.chart.noData')}</p> : null}
      <Suspense fallback={<ChartSpace />}>
        <PowerChart points={points} label={asset === undefined ? '' : assetLabel(asset)} />
      </Suspense>
    </div>
  );
}

const Controls = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  margin-bottom: 8px;
  select {
    min-height: 32px;
    max-width: 100%;
  }
`;

const ChartSpace = styled.div`
  height: 260px;
`;
