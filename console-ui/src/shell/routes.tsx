import type { RouteObject } from 'react-router-dom';
import { LoadingBar } from '../components/LoadingBar';
import { adminArea } from '../areas/admin/routes';
import { customerArea } from '../areas/customer/routes';
import { ForgotPasswordScreen } from '../screens/public/ForgotPasswordScreen';
import { LoginScreen } from '../screens/public/LoginScreen';
import { PublicLayout } from '../screens/public/PublicLayout';
import { ResetPasswordScreen } from '../screens/public/ResetPasswordScreen';
import { UserInviteScreen } from '../screens/public/UserInviteScreen';
import type { ConsoleServices } from './console-services';
import { RootLayout } from './RootLayout';
import { routeCheck } from './route-check';
import { RouteError } from './RouteError';

/** The screens before sign-in (console.md section 2). */
export const publicRoutes: RouteObject = {
  element: <PublicLayout />,
  children: [
    { path: 'login', element: <LoginScreen /> },
    { path: 'forgot-password', element: <ForgotPasswordScreen /> },
    { path: 'reset-password', element: <ResetPasswordScreen /> },
    { path: 'user-invite/:hashId', element: <UserInviteScreen /> },
  ],
};

/**
 * Every route of the console. The root's loader is the route check, run before every
 * navigation (hence shouldRevalidate), while the loading bar shows.
 */
export function consoleRoutes(services: ConsoleServices): RouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      element: <RootLayout />,
      errorElement: <RouteError />,
      // The first route check runs before anything renders; the loading bar shows meanwhile.
      hydrateFallbackElement: <LoadingBar active />,
      loader: ({ request }) => routeCheck(services, new URL(request.url)),
      shouldRevalidate: () => true,
      children: [publicRoutes, adminArea, customerArea],
    },
  ];
}
