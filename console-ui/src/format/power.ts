/** Units of power the console shows, each 1000 times the one before (console.md section 9). */
const units = ['W', 'kW', 'MW', 'GW', 'TW'] as const;

export interface PowerFormat {
  /** Round to 3 significant digits (on by default); off shows the value in its unit with up to 3 decimals. */
  round?: boolean;
}

/** The value rounded to 3 significant digits, as a number (so 12.0 reads 12). */
function threeSignificant(value: number): number {
  return Number(value.toPrecision(3));
}

/**
 * A power in watts as the console shows it: in W, kW, MW, GW or TW, whichever keeps the
 * figure below 1000 (TW beyond), rounded to 3 significant digits. 999.6 W rounds to 1 kW.
 * Not a number shows as an em dash.
 */
export function formatPower(watts: number, { round = true }: PowerFormat = {}): string {
  if (!Number.isFinite(watts)) {
    return '—';
  }
  // Round before choosing the unit, so a value that rounds up to 1000 moves to the next unit.
  const value = round ? threeSignificant(watts) : watts;
  let unit = 0;
  while (unit < units.length - 1 && Math.abs(value) >= 1000 ** (unit + 1)) {
    unit += 1;
  }
  const scaled = value / 1000 ** unit;
  const figure = round ? threeSignificant(scaled) : Math.round(scaled * 1000) / 1000;
  // Negative zero reads as 0.
  return `${figure === 0 ? 0 : figure} ${units[unit] ?? 'W'}`;
}
