import { ComingSoon } from '../../../shell/ComingSoon';

/** Placeholder until built (issue 17). */
export function ApiKeyScreen() {
  return <ComingSoon title="organizations.title" />;
}
