import type { RouteObject } from 'react-router-dom';
import { LoginScreen } from './login/LoginScreen';
import { lazyScreen } from '../../shell/lazy-screen';
import { PublicLayout } from './PublicLayout';

// The screens besides sign-in load when first shown.
const ForgotPasswordScreen = lazyScreen(async () => (await import('./password-reset/ForgotPasswordScreen')).ForgotPasswordScreen);
const ResetPasswordScreen = lazyScreen(async () => (await import('./password-reset/ResetPasswordScreen')).ResetPasswordScreen);
const UserInviteScreen = lazyScreen(async () => (await import('./user-invite/UserInviteScreen')).UserInviteScreen);

/**
 * The route table of the screens before sign-in (console.md section 2; their paths are
 * shell/area.ts's publicPaths). Their texts are in the shared set (i18n/messages/shared.ts),
 * which is loaded before any area's.
 */
export const publicRoutes: RouteObject[] = [
  { path: 'login', element: <LoginScreen /> },
  { path: 'forgot-password', element: <ForgotPasswordScreen /> },
  { path: 'reset-password', element: <ResetPasswordScreen /> },
  { path: 'user-invite/:hashId', element: <UserInviteScreen /> },
];

/** The screens before sign-in, in their frame (a card in the middle of the page). */
export const publicArea: RouteObject = { element: <PublicLayout />, children: publicRoutes };
