import type { RouteObject } from 'react-router-dom';
import { AreaShell, type NavItem } from '../../shell/AreaShell';
import { ComingSoon } from '../../shell/ComingSoon';
import { defaultTab, redirectRoute } from '../../shell/route-helpers';
import { AdminDeviceListScreen } from './devices/AdminDeviceListScreen';
import { AdminDeviceScreen } from './devices/AdminDeviceScreen';
import { LazyAdminIssueListScreen, LazyAdminIssueScreen } from '../../issues/lazy-screens';

/** The admin area's navigation. */
export const adminNav: readonly NavItem[] = [
  { to: '/admin/devices', label: 'nav.devices', icon: 'router' },
  { to: '/admin/device-groups', label: 'nav.deviceGroups', icon: 'router' },
  { to: '/admin/message-destinations', label: 'nav.messageDestinations', icon: 'info' },
  { to: '/admin/issues', label: 'nav.issues', icon: 'bug' },
  { to: '/admin/organizations', label: 'nav.organizations', icon: 'people' },
  { to: '/admin/users', label: 'nav.users', icon: 'people' },
  { to: '/admin/user-invites', label: 'nav.userInvites', icon: 'people' },
];

const soon = (title: Parameters<typeof ComingSoon>[0]['title']) => <ComingSoon title={title} />;

/** Tabs of a screen: the default one first, each a ComingSoon until built. */
function tabs(title: Parameters<typeof ComingSoon>[0]['title'], names: readonly string[]): RouteObject[] {
  const [first] = names;
  return [...(first === undefined ? [] : [defaultTab(first)]), ...names.map((name) => ({ path: name, element: soon(title) }))];
}

/**
 * The admin area's route table (console.md section 2), relative to /admin. A screen is added
 * by replacing its ComingSoon element here; its texts go in i18n/messages/admin.ts.
 */
export const adminRoutes: RouteObject[] = [
  redirectRoute(null, '/admin/devices'),
  { path: 'issues', element: <LazyAdminIssueListScreen /> },
  { path: 'issues/:hashId', element: <LazyAdminIssueScreen /> },
  { path: 'devices', element: <AdminDeviceListScreen /> },
  {
    path: 'devices/:hashId',
    children: [
      defaultTab('timeline'),
      { path: 'timeline', element: <AdminDeviceScreen tab="timeline" /> },
      { path: 'issues', element: <AdminDeviceScreen tab="issues" /> },
      { path: 'settings', element: <AdminDeviceScreen tab="settings" /> },
      { path: 'debugging', element: <AdminDeviceScreen tab="debugging" /> },
      { path: 'billing', children: tabs('devices.title', ['subscription', 'invoicing', 'charges', 'add-charge']) },
    ],
  },
  { path: 'device-groups', element: soon('deviceGroups.title') },
  { path: 'device-groups/add', element: soon('deviceGroups.title') },
  {
    path: 'device-groups/:hashId',
    children: [
      ...tabs('deviceGroups.title', ['general', 'api-keys']),
      {
        path: 'message-destinations',
        children: [
          { index: true, element: soon('deviceGroups.title') },
          { path: 'add', element: soon('deviceGroups.title') },
          { path: ':deviceGroupDestinationHashId', element: soon('deviceGroups.title') },
        ],
      },
    ],
  },
  { path: 'message-destinations', element: soon('messageDestinations.title') },
  { path: 'message-destinations/add', element: soon('messageDestinations.title') },
  { path: 'message-destinations/:hashId', children: tabs('messageDestinations.title', ['general']) },
  { path: 'organizations', element: soon('organizations.title') },
  { path: 'organizations/add', element: soon('organizations.title') },
  {
    path: 'organizations/:hashId',
    children: [
      ...tabs('organizations.title', ['general', 'users', 'partnerships']),
      {
        path: 'api-keys',
        children: [
          { index: true, element: soon('organizations.title') },
          { path: ':apiKeyHashId', element: soon('organizations.title') },
        ],
      },
      {
        path: 'billing',
        children: [
          defaultTab('invoices'),
          { path: 'invoices', element: soon('organizations.title') },
          { path: 'invoices/:invoiceHashId', element: soon('organizations.title') },
          { path: 'legal-entities', element: soon('organizations.title') },
          { path: 'legal-entities/:billingLegalEntityHashId', element: soon('organizations.title') },
          { path: 'invoice-settings', element: soon('organizations.title') },
          { path: 'pricing', element: soon('organizations.title') },
          { path: 'charges', element: soon('organizations.title') },
        ],
      },
    ],
  },
  { path: 'users', element: soon('users.title') },
  { path: 'users/:hashId', children: tabs('users.title', ['general']) },
  { path: 'user-invites', element: soon('userInvites.title') },
  { path: 'user-invites/add', element: soon('userInvites.title') },
  redirectRoute('*', '/admin/devices'),
];

export const adminArea: RouteObject = { path: 'admin', element: <AreaShell nav={adminNav} label="Admin" />, children: adminRoutes };
