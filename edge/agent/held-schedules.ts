import type { ScheduleItem } from '../../contracts/device/commands';
import type { ScheduleTarget } from '../control/schedule';
import type { AgentClock } from './clock';
import type { AgentLog } from './journal';
import type { Runtime } from './runtime';
import type { AgentState } from './state';

/** A schedule the agent holds for a target, as setAssetSchedule gave it. */
interface HeldSchedule {
  target: ScheduleTarget;
  schedule: ScheduleItem[];
  messageId: string;
}

function scheduleKey(target: ScheduleTarget): string {
  return target.assetIndex !== undefined ? `asset:${target.assetIndex}` : `loop:${target.controlLoopIndex}`;
}

/**
 * The schedules the cloud gave (setAssetSchedule), by target, kept in schedules.json without
 * the items that have ended: the cloud does not send an acknowledged message again, so a
 * restart takes them up from there.
 */
export class HeldSchedules {
  private readonly held = new Map<string, HeldSchedule>();

  constructor(
    private readonly state: AgentState,
    private readonly clock: AgentClock,
    private readonly log: AgentLog,
  ) {}

  /** Holds a target's schedule (an empty one releases it) and writes what is held. */
  async take(target: ScheduleTarget, schedule: ScheduleItem[], messageId: string): Promise<void> {
    if (schedule.length > 0) {
      this.held.set(scheduleKey(target), { target, schedule, messageId });
    } else {
      this.held.delete(scheduleKey(target));
    }
    const now = this.clock.now();
    const kept = [...this.held.values()]
      .map((entry) => ({ ...entry, schedule: entry.schedule.filter((item) => Date.parse(item.endAt) > now) }))
      .filter((entry) => entry.schedule.length > 0);
    await this.state.writeSchedules(kept);
  }

  /** Takes up the schedules held before a restart again, for the targets the running config still has. */
  async restore(runtime: Runtime | null): Promise<void> {
    const held = (await this.state.readSchedules()) as HeldSchedule[] | null;
    if (!runtime || !Array.isArray(held)) {
      return;
    }
    for (const entry of held) {
      const { target } = entry;
      const exists =
        target.assetIndex !== undefined ? runtime.config.assets[target.assetIndex] !== undefined : runtime.loops[target.controlLoopIndex] !== undefined;
      if (exists && Array.isArray(entry.schedule)) {
        runtime.schedule.setSchedule(target, entry.schedule, entry.messageId);
        this.held.set(scheduleKey(target), entry);
      }
    }
    if (this.held.size > 0) {
      this.log('info', `took up ${this.held.size} schedule(s) held before the restart`);
    }
  }
}
