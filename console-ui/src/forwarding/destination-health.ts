import type { DestinationKind } from '../../../contracts/forwarding';
import type { DestinationState } from '../graphql/schema-types';
import type { MessageKey, Translate } from '../i18n/messages';

/** What the lists and the destination's page show of its health. */
export interface HealthShown {
  state: DestinationState;
  pausedReason?: string | null;
  lagReports: number;
  lagCountCapped: boolean;
  lagSeconds: number;
  failingSince?: string | null;
}

/** A moment as the console shows it, or "never". */
export const whenText = (t: Translate, at: string | null | undefined): string =>
  at === null || at === undefined ? t('forwarding.never') : new Date(at).toLocaleString();

/** A span of seconds in its largest whole unit: 45 s, 12 min, 3 h, 2 d. */
export function durationText(t: Translate, seconds: number): string {
  if (seconds < 120) {
    return t('forwarding.seconds', { count: seconds });
  }
  if (seconds < 2 * 3600) {
    return t('forwarding.minutes', { count: Math.floor(seconds / 60) });
  }
  if (seconds < 2 * 86400) {
    return t('forwarding.hours', { count: Math.floor(seconds / 3600) });
  }
  return t('forwarding.days', { count: Math.floor(seconds / 86400) });
}

/** The reports waiting, "at least" once the count stopped at its cap. */
export const lagReportsText = (t: Translate, health: HealthShown): string =>
  health.lagCountCapped ? t('forwarding.lag.capped', { count: health.lagReports }) : String(health.lagReports);

/** The lag in one line: "None", or "12 reports, 40 s behind". */
export function lagText(t: Translate, health: HealthShown): string {
  if (health.lagReports === 0 && !health.lagCountCapped) {
    return t('forwarding.lag.none');
  }
  return t('forwarding.lag', { reports: lagReportsText(t, health), age: durationText(t, health.lagSeconds) });
}

/** The state in words: active, active but failing since when, paused (and why). */
export function stateText(t: Translate, health: HealthShown): string {
  if (health.state === 'PAUSED') {
    return health.pausedReason === 'failing' ? t('forwarding.pausedReason.failing') : t('forwarding.state.PAUSED');
  }
  if (health.failingSince !== null && health.failingSince !== undefined) {
    return t('forwarding.state.failing', { since: whenText(t, health.failingSince) });
  }
  return t('forwarding.state.ACTIVE');
}

export const kindText = (t: Translate, kind: DestinationKind): string => t(`forwarding.kind.${kind}` as MessageKey);
