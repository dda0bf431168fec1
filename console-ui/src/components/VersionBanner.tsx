import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useMessages } from '../i18n/messages';
import { Icon } from '../theme/Icon';
import { Button } from './Button';

/** When the console asks /release.json whether a newer version is out (console.md section 9). */
export const versionCheckTiming = { firstMs: 30 * 60_000, afterSuccessMs: 30 * 60_000, afterFailureMs: 5 * 60_000 } as const;

export type FetchRelease = () => Promise<{ version: string }>;

export const fetchRelease: FetchRelease = async () => {
  const response = await fetch('/release.json', { cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok) {
    throw new Error(`/release.json answered ${response.status}`);
  }
  return (await response.json()) as { version: string };
};

/**
 * Checks for a newer version: first 30 minutes after start, then 30 minutes after a check that
 * answered and 5 after one that failed, until a version other than `builtVersion` is out.
 * Answers how to stop.
 */
export function startVersionCheck(builtVersion: string, fetchReleaseFn: FetchRelease, onNewVersion: (version: string) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    timer = setTimeout(() => void check(), ms);
  };
  const check = async () => {
    let next: number = versionCheckTiming.afterSuccessMs;
    try {
      const { version } = await fetchReleaseFn();
      if (stopped) {
        return;
      }
      if (version !== builtVersion) {
        onNewVersion(version);
        return;
      }
    } catch {
      next = versionCheckTiming.afterFailureMs;
    }
    if (!stopped) {
      schedule(next);
    }
  };
  schedule(versionCheckTiming.firstMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export interface VersionBannerProps {
  builtVersion: string;
  fetchRelease?: FetchRelease;
  reload?: () => void;
}

/** The new-version banner: shows until dismissed; its action reloads the page. */
export function VersionBanner({ builtVersion, fetchRelease: fetchReleaseFn = fetchRelease, reload = () => window.location.reload() }: VersionBannerProps) {
  const t = useMessages();
  const [newVersion, setNewVersion] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => startVersionCheck(builtVersion, fetchReleaseFn, setNewVersion), [builtVersion, fetchReleaseFn]);

  if (newVersion === null || dismissed) {
    return null;
  }
  return (
    <Banner role="alert">
      <Icon name="refresh" />
      <span>{t('version.available')}</span>
      <Button onClick={reload}>{t('action.reload')}</Button>
      <Button variant="text" aria-label={t('action.dismiss')} onClick={() => setDismissed(true)}>
        <Icon name="close" />
      </Button>
    </Banner>
  );
}

const Banner = styled.div`
  position: fixed;
  top: 0;
  left: 0;
  right: 0;
  z-index: ${({ theme }) => theme.layers.banner};
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 12px;
  padding: 8px 16px;
  background: ${({ theme }) => theme.colors.info};
  color: #fff;
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  button {
    color: #fff;
  }
`;
