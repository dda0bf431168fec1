/**
 * gridOperatorHedno (device-model.md sections 3.5, 3.8, 9): the Greek distribution operator's
 * (HEDNO) limit on the site, in the `gridOperator` layer of the setpoint arbiter (the most
 * restrictive layer: no other source loosens it). The rule (docs/control-loops.md):
 *
 * - HEDNO's limit reaches the gateway through the cloud as limitPower schedule items addressed to
 *   this loop (SiteSnapshot.scheduledLimit). While one is in force the loop limits its assets (one
 *   group, in proportion) so the meter stays within it; assets it need not move are released.
 * - Remote mode (localMode false): the cloud keeps a limit in force while HEDNO is reachable. When
 *   none is, the last limit is kept for `gracePeriod` minutes (30 to 180); after
 *   `routerRestartTimeout` minutes without a limit the router restart hint is raised
 *   (activeControl.gridOperatorRouterRestartHint: restart the operator's router at the site); once the grace
 *   has run out the assets take their fallback (fallbackSetpoint, fallbackLimit; producers without
 *   one are held where they were), the state says fallback and activeControl.gridOperatorLost
 *   is raised. A new limit clears both.
 * - Local mode (localMode true, from the config or the hedno parameters of setAssetParameters,
 *   which hold until the next config): HEDNO has handed the site to local operation; its limits
 *   are not followed, the layer is released, and the grace and router clocks stop.
 * - Meter unreadable for a second while a limit holds: the assets' fallback, as every loop.
 */
import type { AssetParameters } from '../../contracts/device/commands';
import type { DeviceConfig } from '../../contracts/device/config';
import type { LoopStep, SiteSnapshot } from './loop';
import { allocate, deliveryWindow, Headroom, LoopBase, type LoopConfigOf } from './loop-base';
import { controlAlarmCodes, immediateRule } from './monitor';
import { meterPower, type GridLimits } from './site';

const minuteMs = 60_000;

export class GridOperatorHedno extends LoopBase<'gridOperatorHedno'> {
  private readonly headroom: Headroom;
  private localMode: boolean;
  /** The last limit HEDNO set, and when it was last in force. */
  private lastLimit: GridLimits | null = null;
  private lastLimitAt: number | null = null;
  private limitNow: GridLimits | null = null;

  constructor(index: number, config: LoopConfigOf<'gridOperatorHedno'>, device: DeviceConfig) {
    super(index, 'gridOperatorHedno', config, device);
    this.localMode = config.localMode;
    this.headroom = new Headroom(this.responseSteps(config.limitableAssetIndices));
  }

  applyParameters(parameters: AssetParameters): boolean {
    if (parameters.type !== 'hedno') {
      return false;
    }
    this.localMode = parameters.localMode;
    return true;
  }

  protected control(site: SiteSnapshot): LoopStep {
    const { config } = this;
    const layer = 'gridOperator' as const;
    const scheduled = site.scheduledLimit;
    if (this.localMode) {
      this.limitNow = null;
      this.lastLimitAt = null;
      this.monitorLink(site.now, false, false);
      this.status.monitoredPower = meterPower(site.assets[config.meterAssetIndex]);
      this.status.consumptionLimit = null;
      this.status.feedInLimit = null;
      return { ...this.settle({ setpoints: this.released() }), layer };
    }
    let graceOver = false;
    if (scheduled !== undefined) {
      this.lastLimit = scheduled;
      this.lastLimitAt = site.now;
      this.limitNow = scheduled;
    } else if (this.lastLimitAt !== null) {
      const silentMs = site.now - this.lastLimitAt;
      graceOver = silentMs >= config.gracePeriod * minuteMs;
      this.limitNow = this.lastLimit;
    } else {
      this.limitNow = null;
    }
    const silentMs = this.lastLimitAt === null ? 0 : site.now - this.lastLimitAt;
    this.monitorLink(site.now, silentMs >= config.routerRestartTimeout * minuteMs, graceOver);

    const meter = this.readMeter(site, config.meterAssetIndex, meterPower);
    this.status.consumptionLimit = this.limitNow?.consumption ?? null;
    this.status.feedInLimit = this.limitNow?.feedIn ?? null;
    if (meter.value === null) {
      this.status.monitoredPower = null;
      this.headroom.reset();
      if (this.limitNow === null) {
        return { ...this.settle({ setpoints: this.released() }), layer };
      }
      return { ...(meter.fallback ? this.fallbackStep(site, config.limitableAssetIndices) : { setpoints: new Map() }), layer };
    }
    this.status.monitoredPower = meter.value;
    if (graceOver) {
      return { ...this.fallbackStep(site, config.limitableAssetIndices), layer };
    }
    const assets = this.flexOf(site, config.limitableAssetIndices, (index, asset, state) => this.freeOf(site, index, asset, state));
    this.headroom.responseSteps = this.learnResponses(site, config.limitableAssetIndices);
    this.headroom.observe(meter.value + assets.delivered);
    this.noteUnlimitable(site.now, assets.unlimitable);
    if (this.limitNow === null) {
      return { ...this.settle({ setpoints: this.released() }), layer };
    }
    const window = deliveryWindow(meter.value, assets.delivered, this.limitNow, this.headroom.margin);
    const { setpoints, direction } = allocate([assets.flex], window.low, window.high);
    this.lead(site, setpoints, assets.flex, direction);
    this.monitorLimits(site.now, meter.value, { ...this.limitNow, monitored: true }, undefined);
    return { ...this.settle({ setpoints }), layer };
  }

  protected override extras(): Record<string, unknown> {
    return { localMode: this.localMode, gridOperatorLimit: this.limitNow?.feedIn ?? null };
  }

  private released(): Map<number, number | null> {
    return new Map<number, number | null>(this.config.limitableAssetIndices.map((index: number): [number, null] => [index, null]));
  }

  private monitorLink(now: number, restartHint: boolean, lost: boolean): void {
    const { config } = this;
    this.monitor(
      controlAlarmCodes.gridOperatorRouterRestart,
      now,
      restartHint,
      () => `no grid operator limit for ${config.routerRestartTimeout} min: restart the grid operator's router`,
      undefined,
      immediateRule,
    );
    this.monitor(
      controlAlarmCodes.gridOperatorLost,
      now,
      lost,
      () => `no grid operator limit for the grace period of ${config.gracePeriod} min: assets at their fallback`,
      undefined,
      immediateRule,
    );
  }
}
