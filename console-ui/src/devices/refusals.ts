import type { ValidationIssue } from '../../../contracts/errors';
import { apiErrorOfApollo } from '../api/apollo';

/** The refusals of a device write that are about the device and its config (console.md section 8), shown beside the editor. */
const deviceRefusals = ['in_production', 'no_valid_config', 'not_all_assets_have_identifier', 'asset_identifiers_are_not_unique'] as const;

/**
 * The issues of a refused save: invalid_config carries each as { key: path, details: message };
 * the device rules (in_production, no_valid_config, ...) are one issue with the catalogue's text;
 * null for any other failure (forbidden, a network failure), which the error snackbar shows.
 */
export function issuesOfRefusal(error: unknown): ValidationIssue[] | null {
  const apiError = apiErrorOfApollo(error);
  if (apiError === null) {
    return null;
  }
  if (apiError.is('invalid_config')) {
    const details = apiError.details as { issues?: unknown } | null | undefined;
    const issues = Array.isArray(details?.issues) ? (details.issues as unknown[]) : [];
    return issues.map((issue) => {
      const { key, details: message } = (issue ?? {}) as { key?: unknown; details?: unknown };
      return { path: typeof key === 'string' ? key : '', message: typeof message === 'string' ? message : String(message) };
    });
  }
  if (!deviceRefusals.some((key) => apiError.is(key))) {
    return null;
  }
  const offending = (apiError.details as { offendingIdentifier?: unknown } | null | undefined)?.offendingIdentifier;
  return [{ path: typeof offending === 'string' ? offending : '', message: apiError.message }];
}
