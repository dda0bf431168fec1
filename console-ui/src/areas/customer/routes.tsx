import type { RouteObject } from 'react-router-dom';
import { AreaShell, type NavItem } from '../../shell/AreaShell';
import { defaultTab, redirectRoute } from '../../shell/route-helpers';
import { lazyScreen } from '../../shell/lazy-screen';
import { DeviceListScreen } from './devices/DeviceListScreen';
import { LazyIssueListScreen, LazyIssueScreen } from '../../issues/lazy-screens';

// Every screen but the device list (where customers land) loads as its own chunk when first shown.
const CustomerDeviceScreen = lazyScreen(async () => (await import('./devices/CustomerDeviceScreen')).CustomerDeviceScreen);
const AccessManagementScreen = lazyScreen(async () => (await import('./access/AccessManagementScreen')).AccessManagementScreen);
const SettingsScreen = lazyScreen(async () => (await import('./settings/SettingsScreen')).SettingsScreen);

/** The customer area's navigation. */
export const customerNav: readonly NavItem[] = [
  { to: '/teleports', label: 'nav.teleports', icon: 'router' },
  { to: '/issues', label: 'nav.issues', icon: 'bug' },
  { to: '/access-management', label: 'nav.accessManagement', icon: 'people' },
  { to: '/settings', label: 'nav.settings', icon: 'settings' },
];

/**
 * The customer area's route table (console.md section 2). A screen is added by replacing its
 * ComingSoon element (or adding a route) here; its texts go in i18n/messages/customer.ts.
 */
export const customerRoutes: RouteObject[] = [
  redirectRoute(null, '/teleports'),
  { path: 'teleports', element: <DeviceListScreen /> },
  {
    path: 'teleports/:hashId',
    children: [
      defaultTab('general'),
      { path: 'general', element: <CustomerDeviceScreen tab="general" /> },
      { path: 'configuration', element: <CustomerDeviceScreen tab="configuration" /> },
    ],
  },
  { path: 'issues', element: <LazyIssueListScreen /> },
  { path: 'issues/:hashId', element: <LazyIssueScreen /> },
  {
    path: 'access-management',
    children: [
      defaultTab('my-organization'),
      { path: 'my-organization', element: <AccessManagementScreen tab="my-organization" /> },
      { path: 'my-partnerships', element: <AccessManagementScreen tab="my-partnerships" /> },
      { path: 'accepted-partnerships', element: <AccessManagementScreen tab="accepted-partnerships" /> },
      { path: 'message-destinations', element: <AccessManagementScreen tab="message-destinations" /> },
    ],
  },
  { path: 'settings', element: <SettingsScreen /> },
  redirectRoute('*', '/teleports'),
];

/** The customer area: every path outside /admin that is not a screen before sign-in. */
export const customerArea: RouteObject = { element: <AreaShell nav={customerNav} label="" />, children: customerRoutes };
