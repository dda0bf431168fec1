/** The settings of history (REPORT_RETENTION_DAYS, REPORT_MINUTE_RETENTION_DAYS, REPORT_ROLLUP_INTERVAL_SECONDS). */
export interface HistorySettings {
  /** Days raw reports are kept at least (whole months are dropped, so up to a month more). */
  rawRetentionDays: number;
  /** Days minute aggregates are kept; hourly ones are kept for ever. */
  minuteRetentionDays: number;
  /** Seconds between roll-up passes; also how far the roll-ups lag behind the raw reports. */
  rollupIntervalSeconds: number;
}

export const defaultHistorySettings: HistorySettings = {
  rawRetentionDays: 90,
  minuteRetentionDays: 365,
  rollupIntervalSeconds: 60,
};
