import { redirect } from 'react-router-dom';
import { samlLoginUrl } from '../api/identity-api';
import type { ConsoleServices } from './console-services';
import { areaOf, isPublicPath } from './area';

/** The home of a signed-in user: the admin device list for staff, the device list for customers. */
export function homeFor(isStaff: boolean): string {
  return isStaff ? '/admin/devices' : '/teleports';
}

/** A path of this console (not another site), for the `redirect` after sign-in. */
export function safeReturnPath(value: string | null): string | null {
  return value !== null && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

/**
 * The check run before every screen opens (console.md section 2): loads the texts of the
 * target's area when the area changes, learns the session once, and sends the user where
 * they may be: signed out to the login screen (the admin area to the SAML sign-in, with the
 * page as relay state), staff to the admin area, customers out of it, and a signed-in user
 * away from the login screen.
 */
export async function routeCheck(services: ConsoleServices, url: URL): Promise<null> {
  const { pathname, search } = url;
  const area = areaOf(pathname);
  const [session] = await Promise.all([services.session.ensureKnown(), services.messages.enter(area)]);
  if (session.status === 'unknown' && session.failure !== null) {
    // Gridport did not answer the identity check: the error screen offers to try again.
    throw session.failure;
  }
  const signedIn = session.status === 'loggedIn';
  const isStaff = services.session.isStaff;
  if (isPublicPath(pathname)) {
    if (signedIn && pathname === '/login') {
      throw redirect(safeReturnPath(url.searchParams.get('redirect')) ?? homeFor(isStaff));
    }
    return null;
  }
  if (!signedIn) {
    if (area === 'admin') {
      services.leave(samlLoginUrl(`${pathname}${search}`));
      // The page is being replaced by the sign-in; nothing here should render meanwhile.
      return new Promise<null>(() => undefined);
    }
    throw redirect(`/login?redirect=${encodeURIComponent(`${pathname}${search}`)}`);
  }
  if (area === 'admin' && !isStaff) {
    throw redirect(homeFor(false));
  }
  if (area === 'customer' && isStaff) {
    throw redirect(homeFor(true));
  }
  return null;
}
