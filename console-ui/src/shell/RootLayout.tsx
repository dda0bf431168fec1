import { useEffect, useSyncExternalStore } from 'react';
import { Outlet, useNavigation } from 'react-router-dom';
import { LoadingBar } from '../components/LoadingBar';
import { useSnackbar } from '../components/Snackbars';
import { VersionBanner } from '../components/VersionBanner';
import { useMessages } from '../i18n/messages';
import { useSession } from '../session/useSession';
import { useConsoleServices } from './console-services';

/** Calls in flight on the REST client. */
function useRestPending(): number {
  const { rest } = useConsoleServices();
  return useSyncExternalStore(
    (listener) => rest.onPending(listener),
    () => rest.inFlight,
  );
}

/** Shows the session-expired message when the session fails while signed in. */
function SessionExpiryNotice() {
  const { expired } = useSession();
  const snackbar = useSnackbar();
  const t = useMessages();
  useEffect(() => {
    if (expired) {
      snackbar.show({ tone: 'warning', message: t('session.expired') });
    }
  }, [expired, snackbar, t]);
  return null;
}

/** Around every screen: the loading bar (navigations and calls), the version banner, session expiry. */
export function RootLayout() {
  const navigation = useNavigation();
  const pending = useRestPending();
  const { builtVersion, fetchRelease, reload } = useConsoleServices();
  return (
    <>
      <LoadingBar active={navigation.state !== 'idle' || pending > 0} />
      <VersionBanner builtVersion={builtVersion} fetchRelease={fetchRelease} reload={reload} />
      <SessionExpiryNotice />
      <Outlet />
    </>
  );
}
