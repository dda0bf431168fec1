/**
 * What the apparent-power and temperature closed-loop scenarios need of a site besides the plant
 * of edge/simulators/plant: the reactive power a load draws, a transformer that warms with the
 * power through it, a grid meter driver that reads reactive power too, and a temperature sensor
 * driver. In-process like edge/simulators/plant-drivers.ts, on the site's clock.
 */
import type { AssetConfig } from '../../contracts/device/assets';
import type { ConnectionStatistics, DeviceReport, SetpointObservations } from '../../contracts/hub/reports';
import type { AssetState } from '../drivers/driver';
import { PolledAssetDriver, RequestCounter } from '../drivers/common/polled-driver';
import { lagFactor, type Environment, type Load, type PlantAsset, type Site } from '../simulators/plant';
import { PlantDriver, type PlantLink } from '../simulators/plant-drivers';

/** A plant asset that also exchanges reactive power, var in the asset convention (positive delivering). */
export interface ReactiveAsset extends PlantAsset {
  readonly reactivePower: number;
}

function isReactive(asset: PlantAsset): asset is ReactiveAsset {
  return typeof (asset as Partial<ReactiveAsset>).reactivePower === 'number';
}

/** The reactive power a load draws at a lagging power factor: Q = P × tan(acos(pf)). Add it to the site after its load. */
export class ReactiveDemand implements ReactiveAsset {
  readonly activePower = 0;
  reactivePower = 0;
  private readonly tangent: number;

  constructor(
    private readonly load: Load,
    powerFactor: number,
  ) {
    this.tangent = Math.tan(Math.acos(powerFactor));
  }

  step(): void {
    this.reactivePower = -this.load.consumption * this.tangent;
  }
}

export interface TransformerOptions {
  /** Rated power, W. */
  ratedPower: number;
  /** Temperature rise over ambient at rated power, K (it goes with the square of the load). */
  ratedRiseK: number;
  /** Thermal time constant, s. */
  timeConstantS: number;
  /** Ambient temperature: daily mean and half swing, °C; warmest at 15:00 UTC. */
  ambientMeanC: number;
  ambientSwingC: number;
  /** The assets whose power flows through it. */
  through: readonly PlantAsset[];
  /** °C at the start (default: ambient). */
  temperature?: number;
}

/** A transformer's hot-spot temperature: a first-order lag towards ambient + rise × (load / rated)². */
export class Transformer implements PlantAsset {
  readonly activePower = 0;
  temperature: number;

  constructor(private readonly options: TransformerOptions) {
    this.temperature = options.temperature ?? options.ambientMeanC;
  }

  ambient(now: number): number {
    const hours = (now / 3_600_000) % 24;
    return this.options.ambientMeanC + this.options.ambientSwingC * Math.cos((2 * Math.PI * (hours - 15)) / 24);
  }

  step(dtSeconds: number, environment: Environment): void {
    const power = this.options.through.reduce((sum, asset) => sum + asset.activePower, 0);
    const loading = power / this.options.ratedPower;
    const target = this.ambient(environment.now) + this.options.ratedRiseK * loading * loading;
    this.temperature += (target - this.temperature) * lagFactor(dtSeconds, this.options.timeConstantS * 1000);
  }
}

/** The grid meter's driver (demo meter) with the site's reactive power as well: var, positive importing. */
export class ReactiveMeterDriver extends PlantDriver {
  constructor(
    index: number,
    config: AssetConfig,
    private readonly plant: Site,
  ) {
    super(index, config, plant.meter, plant);
  }

  /** The reactive power at the meter now, var (positive importing). */
  get reactivePower(): number {
    return -this.plant.assets.reduce((sum, asset) => sum + (isReactive(asset) ? asset.reactivePower : 0), 0);
  }

  protected override async read(now: number): Promise<AssetState> {
    const state = await super.read(now);
    return { ...state, reactivePower: this.reactivePower };
  }
}

/** A temperature sensor's driver: one named temperature, read in-process; a link taken down makes it unreadable. */
export class TemperatureSensorDriver extends PolledAssetDriver {
  readonly link: PlantLink = { down: false };
  private readonly counter: RequestCounter;

  constructor(
    index: number,
    config: AssetConfig,
    private readonly name: string,
    private readonly source: { readonly temperature: number },
    site: Site,
  ) {
    const counter = new RequestCounter();
    super(
      index,
      config,
      counter,
      () => undefined,
      () => site.now,
    );
    this.counter = counter;
  }

  protected async read(now: number): Promise<AssetState> {
    if (this.link.down) {
      this.counter.count('timeout');
      throw new Error('sensor link down: request timed out');
    }
    this.counter.count('success');
    return { readable: true, at: now, temperatures: { [this.name]: this.source.temperature } };
  }

  protected report(_at: Date, _setpoints: SetpointObservations | undefined, _statistics: ConnectionStatistics): DeviceReport | null {
    return null;
  }
}
