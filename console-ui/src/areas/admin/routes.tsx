import type { RouteObject } from 'react-router-dom';
import { AreaShell, type NavItem } from '../../shell/AreaShell';
import { lazyScreen } from '../../shell/lazy-screen';
import { defaultTab, redirectRoute } from '../../shell/route-helpers';
import { AdminDeviceListScreen } from './devices/AdminDeviceListScreen';
import { deviceBillingSections } from './billing/sections';
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

// Every screen but the device list (where staff land) loads as its own chunk when first shown.
const AdminDeviceScreen = lazyScreen(async () => (await import('./devices/AdminDeviceScreen')).AdminDeviceScreen);
const OrganizationListScreen = lazyScreen(async () => (await import('./organizations/OrganizationListScreen')).OrganizationListScreen);
const OrganizationAddScreen = lazyScreen(async () => (await import('./organizations/OrganizationAddScreen')).OrganizationAddScreen);
const OrganizationFrame = lazyScreen(async () => (await import('./organizations/OrganizationFrame')).OrganizationFrame);
const OrganizationGeneralTab = lazyScreen(async () => (await import('./organizations/OrganizationGeneralTab')).OrganizationGeneralTab);
const OrganizationUsersTab = lazyScreen(async () => (await import('./users/OrganizationUsersTab')).OrganizationUsersTab);
const OrganizationPartnershipsTab = lazyScreen(async () => (await import('./partnerships/OrganizationPartnershipsTab')).OrganizationPartnershipsTab);
const OrganizationApiKeysTab = lazyScreen(async () => (await import('./api-keys/OrganizationApiKeysTab')).OrganizationApiKeysTab);
const ApiKeyScreen = lazyScreen(async () => (await import('./api-keys/ApiKeyScreen')).ApiKeyScreen);
const OrganizationBillingTab = lazyScreen(async () => (await import('./billing/OrganizationBillingTab')).OrganizationBillingTab);
const OrganizationInvoicesTab = lazyScreen(async () => (await import('./billing/OrganizationInvoicesTab')).OrganizationInvoicesTab);
const InvoiceScreen = lazyScreen(async () => (await import('./billing/InvoiceScreen')).InvoiceScreen);
const LegalEntitiesTab = lazyScreen(async () => (await import('./billing/LegalEntitiesTab')).LegalEntitiesTab);
const LegalEntityScreen = lazyScreen(async () => (await import('./billing/LegalEntityScreen')).LegalEntityScreen);
const InvoiceSettingsTab = lazyScreen(async () => (await import('./billing/InvoiceSettingsTab')).InvoiceSettingsTab);
const PricingTab = lazyScreen(async () => (await import('./billing/PricingTab')).PricingTab);
const OrganizationChargesTab = lazyScreen(async () => (await import('./billing/OrganizationChargesTab')).OrganizationChargesTab);
const UserListScreen = lazyScreen(async () => (await import('./users/UserListScreen')).UserListScreen);
const UserScreen = lazyScreen(async () => (await import('./users/UserScreen')).UserScreen);
const UserInviteListScreen = lazyScreen(async () => (await import('./user-invites/UserInviteListScreen')).UserInviteListScreen);
const UserInviteAddScreen = lazyScreen(async () => (await import('./user-invites/UserInviteAddScreen')).UserInviteAddScreen);
const DeviceGroupListScreen = lazyScreen(async () => (await import('./device-groups/DeviceGroupListScreen')).DeviceGroupListScreen);
const DeviceGroupAddScreen = lazyScreen(async () => (await import('./device-groups/DeviceGroupAddScreen')).DeviceGroupAddScreen);
const DeviceGroupFrame = lazyScreen(async () => (await import('./device-groups/DeviceGroupFrame')).DeviceGroupFrame);
const DeviceGroupGeneralTab = lazyScreen(async () => (await import('./device-groups/DeviceGroupGeneralTab')).DeviceGroupGeneralTab);
const DeviceGroupApiKeysTab = lazyScreen(async () => (await import('./device-groups/DeviceGroupApiKeysTab')).DeviceGroupApiKeysTab);
const DeviceGroupDestinationsTab = lazyScreen(async () => (await import('./device-groups/DeviceGroupDestinationsTab')).DeviceGroupDestinationsTab);
const DeviceGroupDestinationAddScreen = lazyScreen(
  async () => (await import('./device-groups/DeviceGroupDestinationAddScreen')).DeviceGroupDestinationAddScreen,
);
const DeviceGroupDestinationScreen = lazyScreen(async () => (await import('./device-groups/DeviceGroupDestinationScreen')).DeviceGroupDestinationScreen);
const MessageDestinationListScreen = lazyScreen(async () => (await import('./message-destinations/MessageDestinationListScreen')).MessageDestinationListScreen);
const MessageDestinationAddScreen = lazyScreen(async () => (await import('./message-destinations/MessageDestinationAddScreen')).MessageDestinationAddScreen);
const MessageDestinationScreen = lazyScreen(async () => (await import('./message-destinations/MessageDestinationScreen')).MessageDestinationScreen);

/**
 * The admin area's route table (console.md section 2), relative to /admin. A screen's texts go
 * in the messages.ts of its folder, merged in i18n/messages/admin.ts.
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
      {
        path: 'billing',
        children: [
          defaultTab('subscription'),
          ...deviceBillingSections.map((section) => ({ path: section, element: <AdminDeviceScreen tab="billing" billing={section} /> })),
        ],
      },
    ],
  },
  { path: 'device-groups', element: <DeviceGroupListScreen /> },
  { path: 'device-groups/add', element: <DeviceGroupAddScreen /> },
  {
    path: 'device-groups/:hashId',
    element: <DeviceGroupFrame />,
    children: [
      defaultTab('general'),
      { path: 'general', element: <DeviceGroupGeneralTab /> },
      { path: 'api-keys', element: <DeviceGroupApiKeysTab /> },
      {
        path: 'message-destinations',
        children: [
          { index: true, element: <DeviceGroupDestinationsTab /> },
          { path: 'add', element: <DeviceGroupDestinationAddScreen /> },
          { path: ':deviceGroupDestinationHashId', element: <DeviceGroupDestinationScreen /> },
        ],
      },
    ],
  },
  { path: 'message-destinations', element: <MessageDestinationListScreen /> },
  { path: 'message-destinations/add', element: <MessageDestinationAddScreen /> },
  { path: 'message-destinations/:hashId', children: [defaultTab('general'), { path: 'general', element: <MessageDestinationScreen /> }] },
  { path: 'organizations', element: <OrganizationListScreen /> },
  { path: 'organizations/add', element: <OrganizationAddScreen /> },
  {
    path: 'organizations/:hashId',
    element: <OrganizationFrame />,
    children: [
      defaultTab('general'),
      { path: 'general', element: <OrganizationGeneralTab /> },
      { path: 'users', element: <OrganizationUsersTab /> },
      { path: 'partnerships', element: <OrganizationPartnershipsTab /> },
      {
        path: 'api-keys',
        children: [
          { index: true, element: <OrganizationApiKeysTab /> },
          { path: ':apiKeyHashId', element: <ApiKeyScreen /> },
        ],
      },
      {
        path: 'billing',
        element: <OrganizationBillingTab />,
        children: [
          defaultTab('invoices'),
          { path: 'invoices', element: <OrganizationInvoicesTab /> },
          { path: 'invoices/:invoiceHashId', element: <InvoiceScreen /> },
          { path: 'legal-entities', element: <LegalEntitiesTab /> },
          { path: 'legal-entities/:billingLegalEntityHashId', element: <LegalEntityScreen /> },
          { path: 'invoice-settings', element: <InvoiceSettingsTab /> },
          { path: 'pricing', element: <PricingTab /> },
          { path: 'charges', element: <OrganizationChargesTab /> },
        ],
      },
    ],
  },
  { path: 'users', element: <UserListScreen /> },
  { path: 'users/:hashId', children: [defaultTab('general'), { path: 'general', element: <UserScreen /> }] },
  { path: 'user-invites', element: <UserInviteListScreen /> },
  { path: 'user-invites/add', element: <UserInviteAddScreen /> },
  redirectRoute('*', '/admin/devices'),
];

export const adminArea: RouteObject = { path: 'admin', element: <AreaShell nav={adminNav} label="Admin" />, children: adminRoutes };
