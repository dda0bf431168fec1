import { Outlet } from 'react-router-dom';

/** Placeholder until built (issue 17): the group's name and tabs around the tab shown. */
export function DeviceGroupFrame() {
  return <Outlet />;
}
