import type { RouteObject } from 'react-router-dom';
import { LoadingBar } from '../components/LoadingBar';
import { adminArea } from '../areas/admin/routes';
import { customerArea } from '../areas/customer/routes';
import { publicArea } from '../areas/public/routes';
import type { ConsoleServices } from './console-services';
import { RootLayout } from './RootLayout';
import { routeCheck } from './route-check';
import { RouteError } from './RouteError';

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
      children: [publicArea, adminArea, customerArea],
    },
  ];
}
