import { extendSeries, toColumns } from './series';

describe('a chart series extended live', () => {
  it('appends live points newer than the history in time order and drops what left the window', () => {
    const history = [
      { t: 100, value: 1 },
      { t: 160, value: 2 },
      { t: 220, value: 3 },
    ];
    const live = [
      { t: 300, value: 6 },
      { t: 200, value: 99 },
      { t: 250, value: 5 },
    ];
    expect(extendSeries(history, live, 150)).toEqual([
      { t: 160, value: 2 },
      { t: 220, value: 3 },
      { t: 250, value: 5 },
      { t: 300, value: 6 },
    ]);
    expect(extendSeries([], live, 0).map((point) => point.t)).toEqual([200, 250, 300]);
    expect(toColumns([{ t: 1, value: -2 }])).toEqual([[1], [-2]]);
  });
});
