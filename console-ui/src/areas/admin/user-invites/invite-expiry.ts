import type { Translate } from '../../../i18n/messages';

/** When an invite expires, or that it has (an invite lists until it is accepted or revoked, expired or not). */
export function expiryText(t: Translate, expiresAt: string, now: number = Date.now()): string {
  const at = new Date(expiresAt);
  return at.getTime() <= now ? t('userInvite.list.expired', { at: at.toLocaleString() }) : at.toLocaleString();
}
