import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** What the console's first page may load at once, gzipped (issue 17: 250 kB). */
export const initialJavaScriptBudget = 250 * 1024;

/** A file's size as gzip -9 sends it. */
export function gzipped(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

/** The scripts index.html loads at once: its module entry and the chunks it preloads. */
export function initialScripts(folder: string): string[] {
  const html = readFileSync(path.join(folder, 'index.html'), 'utf8');
  const sources = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map(
    (match) => match[1] ?? '',
  );
  return [...new Set(sources)].map((source) => path.join(folder, source.replace(/^\//, '')));
}

/** The screens of the admin area that load as their own chunk when first shown (areas/admin/routes.tsx), by module name. */
export const lazyAdminScreens = [
  'AdminDeviceScreen',
  'OrganizationListScreen',
  'OrganizationAddScreen',
  'OrganizationFrame',
  'OrganizationGeneralTab',
  'OrganizationUsersTab',
  'OrganizationPartnershipsTab',
  'OrganizationApiKeysTab',
  'ApiKeyScreen',
  'UserListScreen',
  'UserScreen',
  'UserInviteListScreen',
  'UserInviteAddScreen',
  'DeviceGroupListScreen',
  'DeviceGroupAddScreen',
  'DeviceGroupFrame',
  'DeviceGroupGeneralTab',
  'DeviceGroupApiKeysTab',
  'DeviceGroupDestinationsTab',
  'DeviceGroupDestinationAddScreen',
  'DeviceGroupDestinationScreen',
  'MessageDestinationListScreen',
  'MessageDestinationAddScreen',
  'MessageDestinationScreen',
  'AdminIssueListScreen',
  'AdminIssueScreen',
] as const;
