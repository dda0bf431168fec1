/**
 * What the core and the hub tell this node's metrics (server/metrics.ts serves them at /metrics).
 * A port: graph/ and device-hub/ call it and never import the server; `noMetrics` where nobody counts.
 */
export interface NodeMetrics {
  /** The ingest committed a batch: the reports it held, how many were new (the rest were sent before), and the seconds its write took. */
  ingestBatch(received: number, stored: number, seconds: number): void;
  /** The ingest fell behind: the hub stops reading from every gateway until it catches up (back-pressure). */
  ingestPaused(): void;
  /** The monitors' evaluator evaluated this many stored reports (a report waiting for its device's state counts once, when taken up). */
  monitorReportsEvaluated(count: number): void;
  /** The monitors' sweep finished a round on this node (it holds the lease). */
  monitorSweep(): void;
}

export const noMetrics: NodeMetrics = {
  ingestBatch: () => undefined,
  ingestPaused: () => undefined,
  monitorReportsEvaluated: () => undefined,
  monitorSweep: () => undefined,
};
