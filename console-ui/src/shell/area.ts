/** The two areas of the console (console.md section 2): /admin and everything else. */
export type Area = 'admin' | 'customer';

export const adminPrefix = '/admin';

export function areaOf(pathname: string): Area {
  return pathname === adminPrefix || pathname.startsWith(`${adminPrefix}/`) ? 'admin' : 'customer';
}

/** Screens anyone may open, signed in or not. */
export const publicPaths = ['/login', '/forgot-password', '/reset-password', '/user-invite'] as const;

export function isPublicPath(pathname: string): boolean {
  return publicPaths.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}
