/** What /metrics bounds (docs/operations.md, "Metrics"): label values, and the cost of gauges read at scrape time. */
export const metricsLimits = {
  /** Distinct GraphQL operation names one node labels; later names, absent ones and names the document does not define share `otherOperation`. */
  graphqlOperationNames: 200,
  /** Longest GraphQL operation name labelled as itself. */
  graphqlOperationNameLength: 64,
  /** Message destinations whose forwarding lag is labelled (the most lagging first). */
  forwardingDestinations: 500,
  /** Outbox rows counted at most (the depth reads this figure when there are more). */
  outboxCountMax: 100_000,
  /** How long the scrape-time queries may take together before the scrape goes on with their previous values. */
  scrapeQueryTimeoutMs: 1000,
  /** Scrapes closer together than this share one reading of the database gauges. */
  scrapeQueryIntervalMs: 5000,
  /** Shortest METRICS_TOKEN. */
  tokenMinLength: 32,
} as const;

/** The one label value of GraphQL operations without a name of their own (absent, not defined by the document, past the limit). */
export const otherOperation = '_other';

/** The route label of requests no route matched (404s and requests refused before routing). */
export const unmatchedRoute = '_unmatched';

/** A request id taken from an incoming `x-request-id`: 1 to 128 letters, digits and `._~:@+/=-`; anything else is replaced by a fresh one. */
export const requestIdPattern = /^[A-Za-z0-9._~:@+/=-]{1,128}$/;
