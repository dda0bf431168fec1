import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useMessages } from '../i18n/messages';

// The issue screens (lists, detail, timeline, message form) load when first opened, not with the
// console's first page: its initial JavaScript stays for the device list people land on.
const AdminIssueListScreen = lazy(async () => ({ default: (await import('../areas/admin/issues/AdminIssueListScreen')).AdminIssueListScreen }));
const AdminIssueScreen = lazy(async () => ({ default: (await import('../areas/admin/issues/AdminIssueScreen')).AdminIssueScreen }));
const AdminIssueList = lazy(async () => ({ default: (await import('../areas/admin/issues/AdminIssueList')).AdminIssueList }));
const IssueListScreen = lazy(async () => ({ default: (await import('../areas/customer/issues/IssueListScreen')).IssueListScreen }));
const IssueScreen = lazy(async () => ({ default: (await import('../areas/customer/issues/IssueScreen')).IssueScreen }));

function Loading({ children }: { children: ReactNode }) {
  const t = useMessages();
  return <Suspense fallback={<p>{t('loading')}</p>}>{children}</Suspense>;
}

function loadedWhenShown<P extends object>(Screen: ComponentType<P>) {
  return function Lazy(props: P) {
    return (
      <Loading>
        <Screen {...props} />
      </Loading>
    );
  };
}

export const LazyAdminIssueListScreen = loadedWhenShown(AdminIssueListScreen);
export const LazyAdminIssueScreen = loadedWhenShown(AdminIssueScreen);
export const LazyAdminIssueList = loadedWhenShown(AdminIssueList);
export const LazyIssueListScreen = loadedWhenShown(IssueListScreen);
export const LazyIssueScreen = loadedWhenShown(IssueScreen);
