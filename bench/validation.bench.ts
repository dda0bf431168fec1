/**
 * Micro-benchmark of the hub's hot path per report (issue 5): JSON.parse of the envelope,
 * validateReport of its payload, and JSON.stringify of the same envelope, for comparison.
 *
 *   npm run build && node dist/bench/validation.bench.js [reports]
 *
 * Reports are realistic: meter reports of about ten measurements (three phase voltages and
 * currents, powers, frequency, energy counters) plus the connection statistics, with values and
 * times varying, and a mix of the report types a site sends. Not part of bench/run.ts.
 */
import os from 'node:os';
import { parseEnvelope } from '../contracts/hub/protocol';
import { validateReport, type DeviceReport, type ReportEnvelope } from '../contracts/hub/reports';

const total = Number(process.argv[2] ?? 1_000_000);
/** Distinct envelopes cycled through, so the work is not one object's over and over. */
const poolSize = 10_000;

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function jitter(base: number, spread: number, i: number): number {
  return round(base + spread * Math.sin(i * 0.7), 2);
}

function atOf(i: number): string {
  return new Date(Date.UTC(2026, 4, 1) + i * 1000).toISOString();
}

function statistics(i: number) {
  return { success: 10 + (i % 3), queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: i % 50 === 0 ? 1 : 0, timeout: 0, responseError: 0 };
}

function meterReport(i: number): DeviceReport {
  return {
    type: 'meterPower',
    at: atOf(i),
    asset: i % 4,
    observations: {
      activePower: jitter(125000, 20000, i),
      reactivePower: jitter(-3000, 500, i),
      powerFactor: 0.98,
      frequency: jitter(50, 0.05, i),
      phaseVoltage: { l1: jitter(230, 2, i), l2: jitter(231, 2, i + 1), l3: jitter(229, 2, i + 2) },
      phaseCurrent: { l1: jitter(180, 20, i), l2: jitter(182, 20, i + 1), l3: i % 97 === 0 ? null : jitter(179, 20, i + 2) },
      energyImport: 123456789 + i,
      energyExport: 98765432 + i,
      connectionStatistics: statistics(i),
    },
  };
}

/** One report of the mix: meters and their flash reports dominate, as on a site. */
function mixedReport(i: number): DeviceReport {
  const at = atOf(i);
  const setpoints = { confirmed: 50000, desired: { cloud: 60000, activeControl: 50000 }, effective: 50000 };
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      return meterReport(i);
    case 3:
    case 4:
      return { type: 'meterPower.flash', at, asset: 0, observations: { activePower: jitter(125000, 20000, i), reactivePower: jitter(-3000, 500, i) } };
    case 5:
      return {
        type: 'solarPower',
        at,
        asset: 1,
        observations: {
          activePower: jitter(80000, 5000, i),
          reactivePower: 0,
          dcPower: jitter(82000, 5000, i),
          energyProduced: 1e9 + i,
          activePowerLimitPercentage: 100,
          setpoints,
          connectionStatistics: statistics(i),
        },
      };
    case 6:
      return {
        type: 'batteryPower',
        at,
        asset: 2,
        observations: {
          activePower: jitter(-250000, 10000, i),
          stateOfCharge: jitter(55, 5, i),
          status: 'on',
          maxChargePower: 500000,
          maxDischargePower: 500000,
          temperature: 24.5,
          setpoints,
          connectionStatistics: statistics(i),
        },
      };
    case 7:
      return { type: 'batteryPower.flash', at, asset: 2, observations: { activePower: jitter(-250000, 10000, i), stateOfCharge: 55 } };
    case 8:
      return {
        type: 'evPower',
        at,
        asset: 3,
        observations: {
          activePower: -22000,
          points: [
            { point: 0, status: 'charging', activePower: -11000, phaseCurrent: { l1: 16, l2: 16, l3: 16 } },
            { point: 1, status: 'available', activePower: 0 },
          ],
          setpoints,
          connectionStatistics: statistics(i),
        },
      };
    default:
      return {
        type: 'powerLimiterStatus',
        at,
        controller: 0,
        observations: { state: 'active', monitoredPower: jitter(-400000, 1000, i), feedInLimit: 350000, consumptionLimit: null, iterationMs: 12 },
      };
  }
}

interface Figures {
  name: string;
  nsPerReport: number;
  perSecond: number;
}

/** Runs `work` on every index `count` times after a warm-up, and returns ns per call. */
function measure(name: string, count: number, work: (i: number) => number): Figures {
  let sink = 0;
  for (let i = 0; i < Math.min(count, 200_000); i += 1) {
    sink += work(i % poolSize);
  }
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) {
    sink += work(i % poolSize);
  }
  const elapsedNs = Number(process.hrtime.bigint() - started);
  if (sink < 0) {
    process.stdout.write('');
  }
  const nsPerReport = elapsedNs / count;
  return { name, nsPerReport: round(nsPerReport, 0), perSecond: Math.round(1e9 / nsPerReport) };
}

function suite(label: string, build: (i: number) => DeviceReport): Figures[] {
  const envelopes: ReportEnvelope[] = Array.from({ length: poolSize }, (_, i) => ({ id: `r-${i}`, type: 'report', payload: build(i) }));
  const texts = envelopes.map((envelope) => JSON.stringify(envelope));
  // The payloads as the hub sees them: parsed from text.
  const payloads = texts.map((text) => (JSON.parse(text) as ReportEnvelope).payload as unknown);
  for (const payload of payloads) {
    const result = validateReport(payload);
    if (!result.ok) {
      process.stderr.write(`the benchmark's own ${label} report is invalid: ${JSON.stringify(result.issues)}\n`);
      process.exit(1);
    }
  }
  const bytes = Math.round(texts.reduce((sum, text) => sum + text.length, 0) / texts.length);
  process.stdout.write(`\n${label}: ${total.toLocaleString('en')} reports, envelopes of ${bytes} bytes on average\n\n`);
  return [
    measure('validateReport', total, (i) => (validateReport(payloads[i]).ok ? 1 : 0)),
    measure('JSON.parse of the envelope', total, (i) => (JSON.parse(texts[i] as string) as { id: string }).id.length),
    measure('parseEnvelope + validateReport', total, (i) => {
      const envelope = parseEnvelope(texts[i] as string);
      return envelope !== null && validateReport(envelope.payload).ok ? 1 : 0;
    }),
    measure('JSON.stringify of the envelope', total, (i) => JSON.stringify(envelopes[i]).length),
  ];
}

function print(figures: Figures[]): void {
  process.stdout.write('| step | ns per report | reports per second (one core) |\n| --- | --- | --- |\n');
  for (const figure of figures) {
    process.stdout.write(`| ${figure.name} | ${figure.nsPerReport} | ${figure.perSecond.toLocaleString('en')} |\n`);
  }
}

function invalidSuite(): Figures[] {
  const payloads = Array.from({ length: poolSize }, (_, i) => {
    const report = JSON.parse(JSON.stringify(meterReport(i))) as { observations: Record<string, unknown> };
    report.observations.activePower = 'high';
    return report as unknown;
  });
  const count = Math.max(1, Math.round(total / 10));
  process.stdout.write(`\nInvalid meter reports (one issue each): ${count.toLocaleString('en')} reports\n\n`);
  return [measure('validateReport (refused)', count, (i) => (validateReport(payloads[i]).ok ? 1 : 0))];
}

function main(): void {
  const cpu = os.cpus()[0]?.model ?? 'cpu';
  process.stdout.write(`Report validation on ${os.cpus().length} × ${cpu}, Node ${process.version}\n`);
  print(suite('Meter reports', meterReport));
  print(suite('A mix of report types (30% meter, 20% meter flash, solar, battery, battery flash, EV, loop status)', mixedReport));
  print(invalidSuite());
}

main();
