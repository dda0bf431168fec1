import { commandLimits } from '../../contracts/device/commands';

export type LogLevel = 'info' | 'warn' | 'error';
/** What parts of the agent log with (the drivers' and loops' log function has this shape). */
export type AgentLog = (level: LogLevel, message: string, details?: Record<string, unknown>) => void;

/** Longest journal line kept (the journal report's line limit). */
const lineLength = 8192;

/**
 * The agent's own journal: the last lines it logged, for getJournal (1 to 500 lines). Each
 * line reads `<ISO time> <level> <message> <details as JSON>`; every line also goes on to
 * `forward` (the process logger).
 */
export class Journal {
  private readonly lines: string[] = [];
  private next = 0;

  constructor(
    private readonly now: () => number,
    private readonly forward?: AgentLog,
    readonly capacity: number = commandLimits.journalLinesMax,
  ) {}

  readonly log: AgentLog = (level, message, details) => {
    const detail = details === undefined ? '' : ` ${safeJson(details)}`;
    const line = `${new Date(this.now()).toISOString()} ${level} ${message}${detail}`.slice(0, lineLength);
    if (this.lines.length < this.capacity) {
      this.lines.push(line);
    } else {
      this.lines[this.next] = line;
      this.next = (this.next + 1) % this.capacity;
    }
    this.forward?.(level, message, details);
  };

  /** The last `count` lines, oldest first. */
  tail(count: number): string[] {
    const ordered = [...this.lines.slice(this.next), ...this.lines.slice(0, this.next)];
    return ordered.slice(Math.max(0, ordered.length - count));
  }
}

/** The message of an error, thrown or not, for a log line or a report. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (item instanceof Error ? item.message : item));
  } catch {
    return '[details not serialisable]';
  }
}
