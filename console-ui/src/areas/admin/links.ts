import type { LinkTo } from '../../components/DiffList';

/** The admin screen of each audited object type, by its hash id. */
const adminPaths: Partial<Record<string, (hashId: string) => string>> = {
  devices: (hashId) => `/admin/devices/${hashId}`,
  device_groups: (hashId) => `/admin/device-groups/${hashId}`,
  message_destinations: (hashId) => `/admin/message-destinations/${hashId}`,
  organizations: (hashId) => `/admin/organizations/${hashId}`,
  users: (hashId) => `/admin/users/${hashId}`,
  issues: (hashId) => `/admin/issues/${hashId}`,
};

/** Links of a diff in the admin area: each object to its screen. */
export const adminLinkTo: LinkTo = (objectType, hashId) => adminPaths[objectType]?.(encodeURIComponent(hashId)) ?? null;
