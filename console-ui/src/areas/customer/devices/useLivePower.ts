import { useState } from 'react';
import { activePowerOf } from './power-reports';
import { useDeviceReports } from '../../../devices/useDeviceReports';

/** The latest activePower of an asset, W, and when it was measured (ms since the epoch). */
export interface LiveReading {
  watts: number;
  at: number;
}

/** The latest power reading of each asset of the device (by asset index), from its live reports. */
export function useLivePower(hashId: string): ReadonlyMap<number, LiveReading> {
  const [readings, setReadings] = useState<ReadonlyMap<number, LiveReading>>(new Map());
  useDeviceReports(hashId, (report) => {
    const watts = activePowerOf(report.body);
    const at = Date.parse(report.at);
    if (report.assetIndex === null || watts === null || Number.isNaN(at)) {
      return;
    }
    const asset = report.assetIndex;
    setReadings((current) => {
      const previous = current.get(asset);
      // Reports may arrive out of order (a gateway sends its backlog after a reconnect).
      if (previous !== undefined && previous.at > at) {
        return current;
      }
      return new Map(current).set(asset, { watts, at });
    });
  });
  return readings;
}
