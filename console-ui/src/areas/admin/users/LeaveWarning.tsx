import { useLeaveWarning } from '../../../components/FormDialog';

/** The page warns on leaving while a form on it holds unsaved changes (console.md section 2); a component, to sit inside formik's render. */
export function LeaveWarning({ active }: { active: boolean }) {
  useLeaveWarning(active);
  return null;
}
