/**
 * realTimeInterface (device-model.md sections 3.5, 9): the grid operator's real-time interface, a
 * Modbus TCP server on the loop's `port` and `unitId` that the operator's client reads (the site's
 * power at the meter, the range its assets offer) and writes (a feed-in limit at the connection).
 * The operator's limit is carried out in the `gridOperator` layer of the setpoint arbiter on the
 * loop's assets (no other source loosens it); the loop reports `rtiStatus` at its
 * reportingInterval (at most 60 s). The register map is in docs/control-loops.md and below.
 *
 * The limit holds, once written and enabled, until the operator changes or disables it: a grid
 * operator's limit does not lapse because its client went quiet. With the meter unreadable for a
 * second while it holds, the assets take their fallback.
 */
import type { ServerTCP } from 'modbus-serial';
import type { DeviceConfig } from '../../contracts/device/config';
import type { DeviceReport } from '../../contracts/hub/reports';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, deliveryWindow, Headroom, LoopBase, type LoopConfigOf } from './loop-base';
import { illegalAddress, int32Words, ModbusException, serveLoopRegisters, wordsInt32, type ModbusServerOptions } from './modbus-server';
import { meterPower, rangeOf } from './site';

/** The register map (holding registers, 0-based PDU addresses; input registers mirror them read-only). int32 values take two registers, high word first. */
export const realTimeInterfaceRegisters = {
  /** int32 W at the grid meter, import positive. Read only. */
  activePower: 0,
  /** int32 var at the grid meter. Read only. */
  reactivePower: 2,
  /** int32 W: the most and the least the interface's assets can deliver together now. Read only. */
  maxActivePower: 4,
  minActivePower: 6,
  /** int32 W: the operator's feed-in limit at the connection, 0 or more. Read and write. */
  feedInLimit: 8,
  /** 1: the limit holds; 0: released. Read and write. */
  limitEnabled: 10,
  /** 1 while the limit holds and the loop keeps it (meter readable). Read only. */
  limitActive: 11,
  /** 1 when the meter was readable at the last step. Read only. */
  meterReadable: 12,
  /** The loop's reporting interval, s. Read only. */
  reportingInterval: 13,
  /** Number of assets the interface steers. Read only. */
  assetCount: 14,
  size: 15,
} as const;

const illegalValue = (address: number): ModbusException => new ModbusException(`illegal data value at ${address}`, 0x03);

export class RealTimeInterface extends LoopBase<'realTimeInterface'> {
  private readonly registers = new Uint16Array(realTimeInterfaceRegisters.size);
  private readonly server: ServerTCP;
  private readonly listening: Promise<void>;
  private readonly headroom: Headroom;
  private lastExchangeAt: number | null = null;
  private exchanged = false;
  private serverError: Error | null = null;
  private figures: { activePower: number | null; reactivePower: number | null; maxActivePower: number | null; minActivePower: number | null } = {
    activePower: null,
    reactivePower: null,
    maxActivePower: null,
    minActivePower: null,
  };
  private setpoint: number | null = null;

  constructor(index: number, config: LoopConfigOf<'realTimeInterface'>, device: DeviceConfig, options: ModbusServerOptions = {}) {
    super(index, 'realTimeInterface', config, device);
    this.headroom = new Headroom(this.responseSteps(config.assetIndices));
    const map = realTimeInterfaceRegisters;
    for (const address of [map.activePower, map.reactivePower, map.maxActivePower, map.minActivePower]) {
      this.registers.set(int32Words(null), address);
    }
    this.registers[map.reportingInterval] = Math.round(config.reportingInterval);
    this.registers[map.assetCount] = config.assetIndices.length;
    const registers = this.registers;
    const read = (address: number): number => {
      const value = registers[address];
      if (value === undefined) {
        throw illegalAddress(address);
      }
      this.exchanged = true;
      return value;
    };
    const write = (address: number, values: readonly number[]): void => {
      const writable = (at: number): boolean => at === map.feedInLimit || at === map.feedInLimit + 1 || at === map.limitEnabled;
      const next = registers.slice();
      for (const [offset, value] of values.entries()) {
        if (!writable(address + offset)) {
          throw illegalAddress(address + offset);
        }
        next[address + offset] = value;
      }
      // A negative limit or an enable other than 0 and 1 is refused whole.
      if (wordsInt32(next[map.feedInLimit] ?? 0, next[map.feedInLimit + 1] ?? 0) < 0) {
        throw illegalValue(map.feedInLimit);
      }
      if ((next[map.limitEnabled] ?? 0) > 1) {
        throw illegalValue(map.limitEnabled);
      }
      registers.set(next);
      this.exchanged = true;
    };
    ({ server: this.server, listening: this.listening } = serveLoopRegisters('realTimeInterface', config, options, { read, write }, (failure) => {
      this.serverError = failure;
      this.status.state = 'error';
    }));
  }

  /** Resolves once the server listens; rejects when it cannot (the port is taken). */
  ready(): Promise<void> {
    return this.listening;
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const map = realTimeInterfaceRegisters;
    const layer = 'gridOperator' as const;
    if (this.exchanged) {
      this.exchanged = false;
      this.lastExchangeAt = site.now;
    }
    const enabled = this.registers[map.limitEnabled] === 1;
    this.setpoint = enabled ? wordsInt32(this.registers[map.feedInLimit] ?? 0, this.registers[map.feedInLimit + 1] ?? 0) : null;
    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    const meterState = site.assets[config.meterAssetIndex];
    this.publish(site, meter.value, meterState?.readable === true ? (meterState.reactivePower ?? null) : null);
    this.status.consumptionLimit = null;
    this.status.feedInLimit = this.setpoint;
    this.status.monitoredPower = meter.value;
    this.registers[map.limitActive] = this.setpoint !== null && meter.value !== null ? 1 : 0;
    if (meter.value === null) {
      this.headroom.reset();
      if (this.setpoint === null) {
        return { ...this.finish({ setpoints: this.released() }), layer };
      }
      const step = meter.fallback ? this.fallbackStep(site, config.assetIndices) : { setpoints: new Map<number, number | null>() };
      return { ...step, layer };
    }
    const assets = this.flexOf(site, config.assetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    this.headroom.responseSteps = this.learnResponses(site, config.assetIndices);
    this.headroom.observe(meter.value + assets.delivered);
    this.noteUnlimitable(site.now, assets.unlimitable);
    if (this.setpoint === null) {
      return { ...this.finish({ setpoints: this.released() }), layer };
    }
    const window = deliveryWindow(meter.value, assets.delivered, { consumption: null, feedIn: this.setpoint }, this.headroom.margin);
    const { setpoints, direction } = allocate([assets.flex], window.low, window.high);
    this.lead(site, setpoints, assets.flex, direction);
    this.monitorLimits(site.now, meter.value, { consumption: null, feedIn: this.setpoint, monitored: true }, undefined);
    return { ...this.finish({ setpoints }), layer };
  }

  /** The status report of this loop is rtiStatus (contracts/hub/reports.ts). */
  override statusReport(at: Date): DeviceReport {
    return {
      type: 'rtiStatus',
      at: at.toISOString(),
      controller: this.index,
      observations: {
        ...this.status,
        connected: this.server.socks.size > 0,
        lastExchangeAt: this.lastExchangeAt === null ? null : new Date(this.lastExchangeAt).toISOString(),
        ...this.figures,
        gridOperatorSetpoint: this.setpoint,
      },
    };
  }

  private finish(step: LoopStep): LoopStep {
    this.settle(step);
    if (this.serverError !== null) {
      this.status.state = 'error';
    }
    return step;
  }

  /** Writes what the operator reads: the meter's power, and the range the assets offer (the sum of their ranges, W delivering). */
  private publish(site: SiteSnapshot, activePower: number | null, reactivePower: number | null): void {
    const map = realTimeInterfaceRegisters;
    let max: number | null = null;
    let min: number | null = null;
    for (const index of this.config.assetIndices) {
      const asset = this.asset(index);
      const range = asset === undefined ? null : rangeOf(asset, site.assets[index]);
      if (range !== null && site.assets[index]?.readable === true) {
        max = (max ?? 0) + range.max;
        min = (min ?? 0) + range.min;
      }
    }
    this.figures = { activePower, reactivePower, maxActivePower: max, minActivePower: min };
    this.registers.set(int32Words(activePower), map.activePower);
    this.registers.set(int32Words(reactivePower), map.reactivePower);
    this.registers.set(int32Words(max), map.maxActivePower);
    this.registers.set(int32Words(min), map.minActivePower);
    this.registers[map.meterReadable] = activePower === null ? 0 : 1;
  }

  private released(): Map<number, number | null> {
    return new Map<number, number | null>(this.config.assetIndices.map((index: number): [number, null] => [index, null]));
  }

  override async close(): Promise<void> {
    for (const socket of this.server.socks.keys()) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
    });
  }
}
