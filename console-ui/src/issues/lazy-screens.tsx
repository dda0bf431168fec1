import { lazyScreen } from '../shell/lazy-screen';

// The issue screens (lists, detail, timeline, message form) load when first opened.
export const LazyAdminIssueListScreen = lazyScreen(async () => (await import('../areas/admin/issues/AdminIssueListScreen')).AdminIssueListScreen);
export const LazyAdminIssueScreen = lazyScreen(async () => (await import('../areas/admin/issues/AdminIssueScreen')).AdminIssueScreen);
export const LazyAdminIssueList = lazyScreen(async () => (await import('../areas/admin/issues/AdminIssueList')).AdminIssueList);
export const LazyIssueListScreen = lazyScreen(async () => (await import('../areas/customer/issues/IssueListScreen')).IssueListScreen);
export const LazyIssueScreen = lazyScreen(async () => (await import('../areas/customer/issues/IssueScreen')).IssueScreen);
