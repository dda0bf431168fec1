import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A report waiting for the cloud's acknowledgement. */
export interface StoredReport {
  id: string;
  report: unknown;
}

/**
 * How a report weighs when the store is full: answers to cloud messages (they carry a
 * messageId) and error reports (among them the count of what was dropped) are always kept,
 * flash reports are given up first, regular reports next.
 */
export type ReportKind = 'kept' | 'regular' | 'flash';

/** Reports not kept because the store was full, by kind, since `since` (ms since the epoch). */
export interface DroppedReports {
  regular: number;
  flash: number;
  since: number | null;
}

/**
 * The default bound of the store on disk: a day of a typical site while offline. A site of
 * three assets reporting every 5 s and two control loops reporting every 10 s sends about
 * 69,000 reports a day of about 450 bytes (31 MB), plus a meter's flash report every second
 * (86,400 of about 250 bytes, 22 MB): 64 MB holds that day with room to spare.
 */
export const defaultStoreBytes = 64 * 1024 * 1024;
/** Flash reports stop being kept once the store holds this share of its bound, so regular reports still find room. */
export const flashShareOfBound = 0.8;

const droppedFile = 'dropped.json';

/** A report's kind: kept when it answers a message or is an error report, flash by its type. */
export function kindOfReport(report: unknown): ReportKind {
  const record = report !== null && typeof report === 'object' ? (report as { type?: unknown; observations?: { messageId?: unknown } }) : {};
  if (typeof record.observations?.messageId === 'string' || record.type === 'error') {
    return 'kept';
  }
  return typeof record.type === 'string' && record.type.endsWith('.flash') ? 'flash' : 'regular';
}

interface Segment {
  file: string;
  ids: Set<string>;
  /** Reports still waiting; the segment is deleted once none are. */
  open: number;
  full: boolean;
  bytes: number;
}

export interface ReportStoreOptions {
  reportsPerSegment?: number;
  /** Most bytes the segments may take on disk (defaultStoreBytes). */
  maxBytes?: number;
}

/**
 * Store-and-forward on disk: every report is appended to a segment file before it is sent, and
 * a segment is deleted once every report in it was acknowledged. After a crash or a restart
 * the reports of the segments left are sent again; the cloud stores a report once by its id,
 * so sending one twice is harmless, while losing one is not possible.
 *
 * The store is bounded (maxBytes). When it is full the newest reports are the ones not kept,
 * so the backlog's beginning survives and the oldest reports are dropped last: flash reports
 * from 80% of the bound, regular reports at the bound; answers to cloud messages and error
 * reports are always kept. What was not kept is counted in dropped.json, which survives restarts until
 * `clearDropped`.
 */
export class ReportStore {
  private readonly segments: Segment[] = [];
  private readonly segmentOf = new Map<string, Segment>();
  private writes: Promise<void> = Promise.resolve();
  private bytes = 0;
  private droppedCounts: DroppedReports = { regular: 0, flash: 0, since: null };

  private constructor(
    private readonly directory: string,
    private readonly reportsPerSegment: number,
    readonly maxBytes: number,
  ) {}

  /** Opens the store in `directory`, answering it and the reports left from before, oldest first. */
  static async open(directory: string, options: ReportStoreOptions | number = {}): Promise<{ store: ReportStore; unsent: StoredReport[] }> {
    const { reportsPerSegment = 1000, maxBytes = defaultStoreBytes } = typeof options === 'number' ? { reportsPerSegment: options } : options;
    await mkdir(directory, { recursive: true });
    const store = new ReportStore(directory, reportsPerSegment, maxBytes);
    store.droppedCounts = await readDropped(path.join(directory, droppedFile));
    const files = (await readdir(directory)).filter((name) => name.endsWith('.jsonl')).sort();
    const unsent: StoredReport[] = [];
    for (const name of files) {
      const file = path.join(directory, name);
      const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
      const segment: Segment = { file, ids: new Set(), open: 0, full: true, bytes: (await stat(file)).size };
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as StoredReport;
          if (typeof entry.id === 'string' && !segment.ids.has(entry.id)) {
            segment.ids.add(entry.id);
            segment.open += 1;
            store.segmentOf.set(entry.id, segment);
            unsent.push(entry);
          }
        } catch {
          // A line cut short by a crash while it was written: its report was never acknowledged, nor sent.
        }
      }
      if (segment.open === 0) {
        await rm(file, { force: true });
      } else {
        store.segments.push(segment);
        store.bytes += segment.bytes;
      }
    }
    return { store, unsent };
  }

  /**
   * Appends a report; resolves with it once it is on disk, or with null when the store is full
   * for its kind (then it is counted in `dropped`).
   */
  append(report: unknown, id: string = randomUUID()): Promise<StoredReport | null> {
    const entry: StoredReport = { id, report };
    const line = `${JSON.stringify(entry)}\n`;
    const size = Buffer.byteLength(line);
    const write = this.writes.then(async (): Promise<StoredReport | null> => {
      const kind = kindOfReport(report);
      if (kind !== 'kept' && this.bytes + size > this.maxBytes * (kind === 'flash' ? flashShareOfBound : 1)) {
        this.droppedCounts = { ...this.droppedCounts, [kind]: this.droppedCounts[kind] + 1, since: this.droppedCounts.since ?? Date.now() };
        await writeDropped(path.join(this.directory, droppedFile), this.droppedCounts);
        return null;
      }
      let segment = this.segments[this.segments.length - 1];
      if (!segment || segment.full) {
        segment = {
          file: path.join(this.directory, `${Date.now().toString().padStart(15, '0')}-${randomUUID().slice(0, 8)}.jsonl`),
          ids: new Set(),
          open: 0,
          full: false,
          bytes: 0,
        };
        this.segments.push(segment);
      }
      await appendFile(segment.file, line);
      segment.ids.add(id);
      segment.open += 1;
      segment.bytes += size;
      this.bytes += size;
      this.segmentOf.set(id, segment);
      if (segment.ids.size >= this.reportsPerSegment) {
        segment.full = true;
      }
      return entry;
    });
    this.writes = write.then(
      () => undefined,
      () => undefined,
    );
    return write;
  }

  /** Forgets acknowledged reports; deletes each segment whose reports are all acknowledged. */
  acknowledge(ids: readonly string[]): Promise<void> {
    // In line with appends, so a segment is never deleted under a write to it.
    const work = this.writes.then(async () => {
      const emptied: Segment[] = [];
      for (const id of ids) {
        const segment = this.segmentOf.get(id);
        if (!segment) {
          continue;
        }
        this.segmentOf.delete(id);
        segment.open -= 1;
        if (segment.open === 0) {
          // A segment being written to is closed once drained, so its bytes come back too.
          segment.full = true;
          emptied.push(segment);
        }
      }
      for (const segment of emptied) {
        this.segments.splice(this.segments.indexOf(segment), 1);
        this.bytes -= segment.bytes;
        await rm(segment.file, { force: true });
      }
    });
    this.writes = work.catch(() => undefined);
    return work;
  }

  /** How many reports wait for acknowledgement. */
  get waiting(): number {
    return this.segmentOf.size;
  }

  /** Bytes the waiting segments take on disk. */
  get storedBytes(): number {
    return this.bytes;
  }

  /** Reports not kept since the counter was last cleared. */
  get dropped(): DroppedReports {
    return { ...this.droppedCounts };
  }

  /** Starts the dropped counter again (once the count was reported). */
  async clearDropped(counted: DroppedReports): Promise<void> {
    await this.writes;
    // Drops counted after `counted` was read stay for the next report.
    this.droppedCounts = {
      regular: Math.max(0, this.droppedCounts.regular - counted.regular),
      flash: Math.max(0, this.droppedCounts.flash - counted.flash),
      since: null,
    };
    if (this.droppedCounts.regular + this.droppedCounts.flash > 0) {
      this.droppedCounts.since = Date.now();
    }
    await writeDropped(path.join(this.directory, droppedFile), this.droppedCounts);
  }
}

async function readDropped(file: string): Promise<DroppedReports> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<DroppedReports>;
    const count = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0);
    return { regular: count(value.regular), flash: count(value.flash), since: typeof value.since === 'number' ? value.since : null };
  } catch {
    return { regular: 0, flash: 0, since: null };
  }
}

async function writeDropped(file: string, counts: DroppedReports): Promise<void> {
  const temporary = `${file}.tmp`;
  await writeFile(temporary, JSON.stringify(counts));
  await rename(temporary, file);
}
