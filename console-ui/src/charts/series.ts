/** A point of a time series: seconds since the epoch (uPlot's x unit) and a value. */
export interface SeriesPoint {
  t: number;
  value: number;
}

/**
 * The history extended by live points: live points after the last history point are appended
 * in time order, and everything older than `from` (seconds) is dropped, so a chart of "the last
 * hours" stays bounded however long the page stays open.
 */
export function extendSeries(history: readonly SeriesPoint[], live: readonly SeriesPoint[], from: number): SeriesPoint[] {
  const lastHistory = history.length === 0 ? -Infinity : (history[history.length - 1]?.t ?? -Infinity);
  const newer = live.filter((point) => point.t > lastHistory).sort((a, b) => a.t - b.t);
  return [...history, ...newer].filter((point) => point.t >= from);
}

/** uPlot's column data: the times and one series of values. */
export function toColumns(points: readonly SeriesPoint[]): [number[], number[]] {
  return [points.map((point) => point.t), points.map((point) => point.value)];
}
