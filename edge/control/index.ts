/**
 * The control loops the edge runs (device-model.md sections 3.5, 3.6): createControlLoop makes the
 * loop of a configured activeControl entry (the optimizer's from edge/optimizer), or null for a
 * type not built yet (the agent reports it as unsupported and runs the others).
 */
import type { ControlLoopFactory } from './loop';
import { AfrrLimiter } from './afrr-limiter';
import { BatteryPeakShaver } from './battery-peak-shaver';
import { BatteryPowerLimiter } from './battery-power-limiter';
import { BatteryCurrentLimiter, CurrentLimiter } from './current-limiter';
import { GeneratorBatteryCharger } from './generator-battery-charger';
import { GridOperatorHedno } from './grid-operator-hedno';
import { createOptimizerLoop } from '../optimizer/optimizer.loop';
import { ModbusServerLoop } from './modbus-server';
import { ApparentPowerLimiter } from './apparent-power-limiter';
import { CascadeBatteryPowerLimiter } from './cascade-battery-power-limiter';
import { BatteryPowerReservationLimiter, PowerReservationLimiter } from './reservation-limiters';
import { TemperaturePowerLimiter } from './temperature-power-limiter';
import { PowerLimiter } from './power-limiter';
import { ProportionalPeakShaver } from './proportional-peak-shaver';
import { RealTimeInterface } from './real-time-interface';
import { ZonbalansPowerLimiter } from './zonbalans-power-limiter';

export const createControlLoop: ControlLoopFactory = (index, config, device) => {
  switch (config.type) {
    case 'powerLimiter':
      return new PowerLimiter(index, config, device);
    case 'proportionalPeakShaver':
      return new ProportionalPeakShaver(index, config, device);
    case 'batteryPowerLimiter':
      return new BatteryPowerLimiter(index, config, device);
    case 'batteryCurrentLimiter':
      return new BatteryCurrentLimiter(index, config, device);
    case 'batteryPeakShaver':
      return new BatteryPeakShaver(index, config, device);
    case 'currentLimiter':
      return new CurrentLimiter(index, config, device);
    case 'generatorBatteryCharger':
      return new GeneratorBatteryCharger(index, config, device);
    case 'modbusServer':
      return new ModbusServerLoop(index, config, device);
    case 'afrrLimiter':
      return new AfrrLimiter(index, config, device);
    case 'realTimeInterface':
      return new RealTimeInterface(index, config, device);
    case 'zonbalansPowerLimiter':
      return new ZonbalansPowerLimiter(index, config, device);
    case 'gridOperatorHedno':
      return new GridOperatorHedno(index, config, device);
    case 'cascadeBatteryPowerLimiter':
      return new CascadeBatteryPowerLimiter(index, config, device);
    case 'batteryPowerReservationLimiter':
      return new BatteryPowerReservationLimiter(index, config, device);
    case 'powerReservationLimiter':
      return new PowerReservationLimiter(index, config, device);
    case 'apparentPowerLimiter':
      return new ApparentPowerLimiter(index, config, device);
    case 'temperaturePowerLimiter':
      return new TemperaturePowerLimiter(index, config, device);
    case 'optimizer':
      return createOptimizerLoop(index, config, device);
    default:
      return null;
  }
};

export { SetpointArbiter } from './setpoints';
export { ScheduleRunner } from './schedule';
