import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { flashShareOfBound, kindOfReport, ReportStore } from './report-store';

const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, second)).toISOString();
const regular = (second: number) => ({ type: 'meterPower', at: at(second), asset: 0, observations: { activePower: 1000 + second } });
const flash = (second: number) => ({ type: 'meterPower.flash', at: at(second), asset: 0, observations: { activePower: 1000 + second } });
const answer = (second: number) => ({ type: 'ack', at: at(second), observations: { messageId: `m${second}`, messageType: 'debugPing' } });
/** Bytes one of these reports takes in a segment (every one is the same length with two-digit seconds). */
const lineBytes = (report: unknown, id: string) => Buffer.byteLength(`${JSON.stringify({ id, report })}\n`);

describe('the report store', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'gridport-store-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('tells answers, error reports, flash and regular reports apart', () => {
    expect([regular(10), flash(10), answer(10), { type: 'error', at: at(10), observations: { code: 'x', message: 'y' } }, null].map(kindOfReport)).toEqual([
      'regular',
      'flash',
      'kept',
      'kept',
      'regular',
    ]);
  });

  it('when full keeps the backlog it has, gives up flash reports from 80% of the bound and regular ones at it, always keeps answers, and counts what it dropped across a restart', async () => {
    const size = lineBytes(regular(10), 'r10');
    expect(lineBytes(flash(10), 'f10')).toBe(size + 6);
    // Room for exactly ten regular reports.
    const maxBytes = size * 10;
    const { store } = await ReportStore.open(folder, { maxBytes });
    const kept: string[] = [];
    const dropped: string[] = [];
    const append = async (report: unknown, id: string) => ((await store.append(report, id)) ? kept : dropped).push(id);

    for (let second = 10; second < 16; second += 1) {
      await append(regular(second), `r${second}`);
    }
    // 6 of 10 taken: a flash report still fits under 80%...
    await append(flash(16), 'f16');
    expect(store.storedBytes).toBe(size * 7 + 6);
    // ...the next would go over 80%, so from now on flash reports are given up while regular reports still fit.
    expect(store.storedBytes + size + 6).toBeGreaterThan(maxBytes * flashShareOfBound);
    await append(flash(17), 'f17');
    await append(regular(18), 'r18');
    await append(regular(19), 'r19');
    await append(regular(20), 'r20');
    await append(flash(21), 'f21');
    await append(answer(22), 'a22');
    expect(kept).toEqual(['r10', 'r11', 'r12', 'r13', 'r14', 'r15', 'f16', 'r18', 'r19', 'a22']);
    expect(dropped).toEqual(['f17', 'r20', 'f21']);
    expect(store.storedBytes).toBeGreaterThan(maxBytes);
    expect(store.dropped).toMatchObject({ regular: 1, flash: 2 });

    const reopened = await ReportStore.open(folder, { maxBytes });
    expect(reopened.unsent.map((entry) => entry.id)).toEqual(kept);
    expect(reopened.store.dropped).toMatchObject({ regular: 1, flash: 2 });

    // Acknowledging frees the room; the counter is cleared by what was reported, later drops stay.
    const counted = reopened.store.dropped;
    await reopened.store.acknowledge(kept);
    expect(reopened.store.storedBytes).toBe(0);
    expect(await reopened.store.append(flash(30), 'f30')).toEqual({ id: 'f30', report: flash(30) });
    await reopened.store.clearDropped(counted);
    expect(reopened.store.dropped).toEqual({ regular: 0, flash: 0, since: null });
    expect((await ReportStore.open(folder, { maxBytes })).store.dropped).toEqual({ regular: 0, flash: 0, since: null });
  });
});
