import { fileLimits } from '../contracts/file';
import type { FileService } from '../graph/operations/services/file.service';
import type { Logger } from './logger';

/** How often each node removes stale temporary uploads. */
export const fileSweepIntervalMs = 60 * 60 * 1000;

/**
 * Removes, on this node, every hour and once at start, the uploads no message took within
 * fileLimits.temporaryUploadHours (docs/operations.md, "Files"). Several nodes share the work
 * (the rows are taken with SKIP LOCKED).
 */
export function startFileSweep(files: FileService, log: Logger, intervalMs: number = fileSweepIntervalMs): { close(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = files
      .removeStaleUploads(new Date(Date.now() - fileLimits.temporaryUploadHours * 60 * 60 * 1000))
      .then((removed) => {
        if (removed > 0) {
          log.info({ removed }, 'removed temporary uploads that no message took');
        }
      })
      .catch((error: unknown) => log.error({ err: error }, 'removing stale temporary uploads failed'));
  };
  const first = setTimeout(sweep, 0);
  const timer = setInterval(sweep, intervalMs);
  first.unref();
  timer.unref();
  return {
    // Stops sweeping, and waits for a sweep under way (it holds a database connection).
    close: async () => {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
