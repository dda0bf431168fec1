import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import uPlot from 'uplot';
import { formatPower } from '../format/power';
import { theme } from '../theme/theme';
import { toColumns, type SeriesPoint } from './series';

export interface PowerChartProps {
  points: readonly SeriesPoint[];
  /** The series' name, read out as the chart's label. */
  label: string;
  height?: number;
}

/** The width a chart takes: its box, never below what a phone can show. */
const minWidth = 240;

/**
 * A line chart of power over time (uPlot on a canvas): axes in local time and in W..TW, as wide
 * as its box (it follows the box as it resizes, so it reads on a phone too).
 */
export function PowerChart({ points, label, height = 260 }: PowerChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = box.current;
    if (element === null) {
      return undefined;
    }
    const width = () => Math.max(minWidth, element.clientWidth);
    const options: uPlot.Options = {
      width: width(),
      height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [
        { stroke: theme.colors.textMuted, grid: { stroke: theme.colors.border } },
        { stroke: theme.colors.textMuted, grid: { stroke: theme.colors.border }, size: 70, values: (_chart, ticks) => ticks.map((tick) => formatPower(tick)) },
      ],
      series: [{}, { label, stroke: theme.colors.primary, width: 2, fill: 'rgba(31, 79, 214, 0.08)', spanGaps: false }],
    };
    const created = new uPlot(options, toColumns([]), element);
    chart.current = created;
    const observer = new ResizeObserver(() => created.setSize({ width: width(), height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      created.destroy();
      chart.current = null;
    };
  }, [height, label]);

  useEffect(() => {
    chart.current?.setData(toColumns(points));
  }, [points, label, height]);

  return <Box ref={box} role="img" aria-label={label} data-testid="power-chart" data-points={points.length} />;
}

const Box = styled.div`
  width: 100%;
  min-width: 0;
  overflow: hidden;
  .u-wrap {
    position: relative;
    user-select: none;
  }
  .u-over,
  .u-under {
    position: absolute;
  }
  canvas {
    display: block;
    position: relative;
  }
  .u-axis {
    position: absolute;
  }
  .u-cursor-x,
  .u-cursor-y,
  .u-select {
    position: absolute;
    pointer-events: none;
  }
  .u-cursor-x {
    border-right: 1px dashed ${({ theme: current }) => current.colors.textMuted};
    height: 100%;
  }
  .u-cursor-y {
    display: none;
  }
  .u-cursor-pt {
    position: absolute;
    border-radius: 50%;
    pointer-events: none;
  }
`;
