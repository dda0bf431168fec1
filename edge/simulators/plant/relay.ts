import type { PlantAsset } from './asset';

/** Relay outputs; a channel that is on switches its load (W, consumption) into the site. */
export class Relay implements PlantAsset {
  activePower = 0;
  readonly channels: ('on' | 'off')[];
  readonly channelLoads: number[];

  constructor(options: { channels: number; channelLoads?: readonly number[]; initial?: readonly ('on' | 'off')[] }) {
    this.channels = Array.from({ length: options.channels }, (_, i) => options.initial?.[i] ?? 'off');
    this.channelLoads = Array.from({ length: options.channels }, (_, i) => options.channelLoads?.[i] ?? 0);
  }

  step(): void {
    let power = 0;
    for (let i = 0; i < this.channels.length; i += 1) {
      power += this.channels[i] === 'on' ? (this.channelLoads[i] ?? 0) : 0;
    }
    this.activePower = 0 - power;
  }
}
