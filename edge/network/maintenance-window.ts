import { minutesOfDay } from '../../contracts/device/time-window';

/** The config's maintenanceWindow (device-model.md section 3.1): hh:mm to hh:mm of one day, start not after end. */
export interface MaintenanceWindow {
  start: string;
  end: string;
}

/**
 * Whether disruptive work may run at `at`: always without a window, else from its start up to
 * (not including) its end, in the gateway's local time, the clock an operator on site reads. A
 * window whose start equals its end is empty: the work waits for a config with another window.
 */
export function withinMaintenanceWindow(window: MaintenanceWindow | undefined | null, at: Date): boolean {
  if (!window) {
    return true;
  }
  const minute = at.getHours() * 60 + at.getMinutes();
  return minute >= minutesOfDay(window.start) && minute < minutesOfDay(window.end);
}
