import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';

/** A route that only redirects (the route tables' defaults): `path` null is the index route. */
export function redirectRoute(path: string | null, to: string): RouteObject {
  // element null: the loader always redirects, there is nothing to render.
  return path === null ? { index: true, element: null, loader: () => redirect(to) } : { path, element: null, loader: () => redirect(to) };
}

/** The index of a route with tabs: redirects to the default tab, below the matched path. */
export function defaultTab(tab: string): RouteObject {
  return {
    index: true,
    element: null,
    loader: ({ request }: LoaderFunctionArgs) => {
      const { pathname, search } = new URL(request.url);
      return redirect(`${pathname.replace(/\/+$/, '')}/${tab}${search}`);
    },
  };
}
