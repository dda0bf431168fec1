/**
 * The report type that carries an asset's activePower, by asset category (contracts/hub/reports.ts);
 * categories without a power report (sensors, relays, misc) have none.
 */
const powerReportByCategory: Readonly<Partial<Record<string, string>>> = {
  solar: 'solarPower',
  wind: 'windPower',
  meter: 'meterPower',
  battery: 'batteryPower',
  heat: 'thermalPower',
  ev: 'evPower',
  generator: 'generatorPower',
};

export function powerReportType(category: string | null): string | null {
  return category === null ? null : (powerReportByCategory[category] ?? null);
}

/** The activePower observation of a report body ({ observations: { activePower } }), when it is a number. */
export function activePowerOf(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) {
    return null;
  }
  const observations = (body as { observations?: unknown }).observations;
  if (typeof observations !== 'object' || observations === null) {
    return null;
  }
  const power = (observations as { activePower?: unknown }).activePower;
  return typeof power === 'number' && Number.isFinite(power) ? power : null;
}
