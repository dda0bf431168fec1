/**
 * Figures of the link pool against the pymodbus peer (not a test: timings vary by machine).
 *   npx ts-node-transpile-only test-support/modbus-peers/measure.ts
 * Prints, per line, what was measured and the median or total.
 */
import { ModbusLinkPool } from '../../edge/modbus/link-pool';
import { startRegisterServer } from './register-server';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const registers = Array.from({ length: 125 }, (_, i) => i);
  const peer = await startRegisterServer({ units: { '1': { holding: { '0': registers } }, '2': { holding: { '0': registers } } }, silent: [7] });
  const pool = new ModbusLinkPool();
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  try {
    const unit = pool.unit(peer.connection, 1, { timeoutMs: 1000 });
    await unit.readHoldingRegisters(0, 1);
    const single: number[] = [];
    for (let i = 0; i < 500; i += 1) {
      const start = process.hrtime.bigint();
      await unit.readHoldingRegisters(0, 10);
      single.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    out(`read 10 registers, one at a time: median ${median(single).toFixed(3)} ms over 500`);

    // Batches of 60, within the queue bound of 64.
    const units = [1, 2].map((slaveId) => pool.unit(peer.connection, slaveId, { timeoutMs: 1000 }));
    const start = process.hrtime.bigint();
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(Array.from({ length: 60 }, (_, i) => units[i % 2]?.readHoldingRegisters(0, 125)));
    }
    const total = Number(process.hrtime.bigint() - start) / 1e6;
    out(`600 reads of 125 registers, 60 queued at a time on one link (two units): ${total.toFixed(1)} ms, ${(600 / (total / 1000)).toFixed(0)} requests/s`);

    const silent = pool.unit(peer.connection, 7, { timeoutMs: 200, retries: 0 });
    const neighbour: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const silentRead = silent.readHoldingRegisters(0, 1).catch(() => undefined);
      const begin = process.hrtime.bigint();
      await unit.readHoldingRegisters(0, 1);
      neighbour.push(Number(process.hrtime.bigint() - begin) / 1e6);
      await silentRead;
    }
    out(`a read queued behind a silent unit's 200 ms timeout on the same link: median ${median(neighbour).toFixed(1)} ms over 10`);
  } finally {
    await pool.close();
    await peer.stop();
  }
}

void main();
