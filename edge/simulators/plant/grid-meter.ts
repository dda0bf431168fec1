import type { PlantAsset } from './asset';
import { energyWh, phaseCurrents } from './physics';

/** The grid connection meter: everything the site's assets draw minus what they deliver. */
export class GridMeter {
  /** W, positive importing. */
  activePower = 0;
  readonly phasePowers: [number, number, number] = [0, 0, 0];
  energyImport = 0;
  energyExport = 0;
  frequency = 50;

  constructor(readonly phaseVoltage = 230) {}

  get phaseCurrent(): [number, number, number] {
    return phaseCurrents(this.phasePowers, this.phaseVoltage);
  }

  /** Recomputes the reading from the assets and counts the energy of `dtSeconds`. */
  measure(assets: readonly PlantAsset[], dtSeconds: number): void {
    let l1 = 0;
    let l2 = 0;
    let l3 = 0;
    for (const asset of assets) {
      const phases = asset.phasePowers;
      if (phases === undefined) {
        const third = asset.activePower / 3;
        l1 -= third;
        l2 -= third;
        l3 -= third;
      } else {
        // Phase powers of a consumer are drawn (positive), so they add to the import.
        l1 += phases[0];
        l2 += phases[1];
        l3 += phases[2];
      }
    }
    this.phasePowers[0] = l1;
    this.phasePowers[1] = l2;
    this.phasePowers[2] = l3;
    this.activePower = l1 + l2 + l3;
    const wh = energyWh(this.activePower, dtSeconds);
    if (wh > 0) {
      this.energyImport += wh;
    } else {
      this.energyExport -= wh;
    }
  }
}
