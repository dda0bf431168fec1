/**
 * A map's setpoint as register quantities and back, shared by the driver (writing, reading
 * back) and the simulator (what a write asks of the plant): W as W, as % of nominal power, or
 * as A of charge current per phase (drawn, so negative W in the asset convention).
 */
import type { RegisterBlock } from '../../modbus/link';
import { decodeRaw, orderOf, tidy } from './points';
import { registerCount, type RegisterMap, type SetpointSpec } from './schema';

export interface SetpointContext {
  /** Nominal power, W (percent setpoints); null when unknown. */
  nominal: number | null;
  /** Phase voltage a charge current is reckoned with, V. */
  phaseVoltage: number;
}

/** The register quantity (W, % or A, signed) for a setpoint in W; throws for a % setpoint without nominal power. */
export function quantityOf(spec: SetpointSpec, watts: number, context: SetpointContext): number {
  switch (spec.kind) {
    case 'watts':
      return watts;
    case 'percent':
      if (context.nominal === null) {
        throw new RangeError('a % setpoint needs the nominal power (nominalActivePower)');
      }
      return (watts / context.nominal) * 100;
    case 'current':
      return Math.abs(watts) / (spec.phases * context.phaseVoltage);
  }
}

/** The setpoint in W a register quantity stands for; null without the nominal power a % needs. */
export function wattsOf(spec: SetpointSpec, quantity: number, context: SetpointContext): number | null {
  switch (spec.kind) {
    case 'watts':
      return quantity;
    case 'percent':
      return context.nominal === null ? null : (quantity / 100) * context.nominal;
    case 'current':
      return -quantity * spec.phases * context.phaseVoltage;
  }
}

/** The setpoint in force as the registers hold it, W; null when released (the first enable write not in force) or unread. */
export function setpointIn(map: RegisterMap, spec: SetpointSpec, block: Pick<RegisterBlock, 'slice'>, context: SetpointContext): number | null {
  const enable = spec.enable[0];
  if (enable !== undefined) {
    const registers = block.slice(enable.address, enable.type === 'u32' ? 2 : 1);
    if (registers === undefined || decodeRaw(registers, enable.type, 'big') !== enable.value) {
      return null;
    }
  }
  let negative = false;
  if (spec.direction !== undefined) {
    const direction = block.slice(spec.direction.address, 1)?.[0];
    const { positive, zero } = spec.direction;
    negative = direction === spec.direction.negative;
    // A direction register holding none of its values (a stop command) is a released setpoint.
    if (!negative && direction !== positive && direction !== zero) {
      return null;
    }
  }
  const registers = block.slice(negative && spec.negativeAddress !== undefined ? spec.negativeAddress : spec.address, registerCount(spec));
  if (registers === undefined) {
    return null;
  }
  if (spec.off !== undefined && registers[0] === spec.off.raw) {
    return 0;
  }
  let raw = Number(decodeRaw(registers, spec.type, orderOf(map, spec)));
  if (spec.magnitude) {
    raw = negative ? -Math.abs(raw) : Math.abs(raw);
  }
  const watts = wattsOf(spec, raw * spec.scale, context);
  return watts === null || !Number.isFinite(watts) ? null : tidy(watts);
}
