import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

/** A report waiting for the cloud's acknowledgement. */
export interface StoredReport {
  id: string;
  report: unknown;
}

interface Segment {
  file: string;
  ids: Set<string>;
  /** Reports still waiting; the segment is deleted once none are. */
  open: number;
  full: boolean;
}

/**
 * Store-and-forward on disk: every report is appended to a segment file before it is sent, and
 * a segment is deleted once every report in it was acknowledged. After a crash or a restart
 * the reports of the segments left are sent again; the cloud stores a report once by its id,
 * so sending one twice is harmless, while losing one is not possible.
 */
export class ReportStore {
  private readonly segments: Segment[] = [];
  private readonly segmentOf = new Map<string, Segment>();
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly directory: string,
    private readonly reportsPerSegment: number,
  ) {}

  /** Opens the store in `directory`, answering it and the reports left from before, oldest first. */
  static async open(directory: string, reportsPerSegment = 1000): Promise<{ store: ReportStore; unsent: StoredReport[] }> {
    await mkdir(directory, { recursive: true });
    const store = new ReportStore(directory, reportsPerSegment);
    const files = (await readdir(directory)).filter((name) => name.endsWith('.jsonl')).sort();
    const unsent: StoredReport[] = [];
    for (const name of files) {
      const file = path.join(directory, name);
      const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
      const segment: Segment = { file, ids: new Set(), open: 0, full: true };
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
      }
    }
    return { store, unsent };
  }

  /** Appends a report; resolves once it is on disk. */
  append(report: unknown, id: string = randomUUID()): Promise<StoredReport> {
    const entry: StoredReport = { id, report };
    const write = this.writes.then(async () => {
      let segment = this.segments[this.segments.length - 1];
      if (!segment || segment.full) {
        segment = { file: path.join(this.directory, `${Date.now().toString().padStart(15, '0')}-${randomUUID().slice(0, 8)}.jsonl`), ids: new Set(), open: 0, full: false };
        this.segments.push(segment);
      }
      await appendFile(segment.file, `${JSON.stringify(entry)}\n`);
      segment.ids.add(id);
      segment.open += 1;
      this.segmentOf.set(id, segment);
      if (segment.ids.size >= this.reportsPerSegment) {
        segment.full = true;
      }
    });
    this.writes = write.catch(() => undefined);
    return write.then(() => entry);
  }

  /** Forgets acknowledged reports; deletes each segment whose reports are all acknowledged. */
  async acknowledge(ids: readonly string[]): Promise<void> {
    const emptied: Segment[] = [];
    for (const id of ids) {
      const segment = this.segmentOf.get(id);
      if (!segment) {
        continue;
      }
      this.segmentOf.delete(id);
      segment.open -= 1;
      if (segment.open === 0 && segment.full) {
        emptied.push(segment);
      }
    }
    for (const segment of emptied) {
      this.segments.splice(this.segments.indexOf(segment), 1);
      await rm(segment.file, { force: true });
    }
  }

  /** How many reports wait for acknowledgement. */
  get waiting(): number {
    return this.segmentOf.size;
  }
}
