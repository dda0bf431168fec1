/**
 * A small, deterministic plant model of a site behind one grid meter (issue 6 item 6): weather
 * (irradiance by time of day with passing clouds, wind with gusts), solar, wind, batteries, a
 * noisy load, EV chargers with sessions, a generator, heat storage and relays.
 *
 * Deterministic: one seeded generator per site and an injected clock (the site's own `now`, moved
 * only by `step`), so a test replays the same day every time and a simulated day runs as fast as
 * the CPU allows. `step` allocates nothing but new EV sessions and costs 1-3 µs for a whole site.
 *
 * Signs (contracts/hub/reports.ts): an asset's activePower is positive when it delivers power
 * (producing, discharging) and negative when it draws power (charging, heating); the grid meter's
 * activePower is positive when the site imports. Setpoints are W in the asset's convention.
 *
 * One file per part of the plant (solar.ts, wind.ts, battery.ts, ...), the physics they share in
 * physics.ts; the site (site.ts) composes them behind its grid meter.
 */

export type { ControllableAsset, Environment, PlantAsset } from './asset';
export { Battery, type BatteryOptions } from './battery';
export { ChargePoint, EvCharger, type ChargePointStatus, type EvChargerOptions } from './ev-charger';
export { Generator, type GeneratorOptions } from './generator';
export { GridMeter } from './grid-meter';
export { HeatStorage, type HeatStorageOptions } from './heat-storage';
export { Load, type LoadOptions } from './load';
export { lagFactor } from './physics';
export { SeededRandom } from './random';
export { Relay } from './relay';
export { Site, type SiteOptions } from './site';
export { SolarPlant, type SolarOptions } from './solar';
export { Weather, type WeatherOptions } from './weather';
export { WindTurbine, type WindOptions } from './wind';
