import { Outlet } from 'react-router-dom';

/** Placeholder until built (issue 17): the organisation's name and tabs around the tab shown. */
export function OrganizationFrame() {
  return <Outlet />;
}
