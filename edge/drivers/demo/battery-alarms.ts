/**
 * The error and warning codes a demo battery reports (device-model.md section 3.8: the
 * `demoBattery` parameters, for tests and demos). A real battery raises its alarms from status
 * registers; the demo battery raises the ones it is given, so that a demo or a test can walk an
 * asset alarm through the whole platform: the agent's `alarm` reports, the cloud's asset alarm,
 * its ticket, and the clearing of both.
 *
 * Each code given becomes an active alarm (`fault` for an error, `warning` for a warning; a code
 * given as both is an error); a code no longer given clears (active false). Alarms are reported
 * once per change, not again at every reporting interval.
 */
import type { AssetParameters } from '../../../contracts/device/commands';
import type { AlarmReport, alarmLevels } from '../../../contracts/hub/reports';

type AlarmLevel = (typeof alarmLevels)[number];

export class DemoBatteryAlarms {
  /** The codes in force, with their level. */
  private readonly active = new Map<string, AlarmLevel>();
  /** Changes not yet reported, by code: its level, and whether it is raised or cleared. */
  private readonly changed = new Map<string, { level: AlarmLevel; active: boolean }>();

  constructor(private readonly assetIndex: number) {}

  /** Takes demoBattery parameters; false for any other kind. */
  apply(parameters: AssetParameters): boolean {
    if (parameters.type !== 'demoBattery') {
      return false;
    }
    const wanted = new Map<string, AlarmLevel>();
    for (const code of parameters.warnings) {
      wanted.set(code, 'warning');
    }
    for (const code of parameters.errors) {
      wanted.set(code, 'fault');
    }
    for (const [code, level] of this.active) {
      if (!wanted.has(code)) {
        this.active.delete(code);
        this.changed.set(code, { level, active: false });
      }
    }
    for (const [code, level] of wanted) {
      if (this.active.get(code) !== level) {
        this.active.set(code, level);
        this.changed.set(code, { level, active: true });
      }
    }
    return true;
  }

  /** The alarm reports of the changes since the last call. */
  drain(at: Date): AlarmReport[] {
    const reports = [...this.changed].map(([code, { level, active }]): AlarmReport => ({
      type: 'alarm',
      at: at.toISOString(),
      asset: this.assetIndex,
      observations: {
        code,
        level,
        active,
        description: `Demo battery ${level === 'fault' ? 'error' : 'warning'} ${code}${active ? '' : ' cleared'}`,
      },
    }));
    this.changed.clear();
    return reports;
  }
}
