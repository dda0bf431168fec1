import { configIssues } from '../../../../../contracts/device/config';
import { apiErrorOfApollo } from '../../../api/apollo';

/** An issue of a config: where (a path such as activeControl[0].limitSchedule) and the spec's message. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** What the editor's text is: not JSON, or JSON with the shared schema's issues (none when valid). */
export type ConfigCheck = { kind: 'notJson'; reason: string } | { kind: 'json'; config: unknown; issues: ConfigIssue[] };

/** Whether a config's VPN credentials are withheld (null): the server does so for customers. */
export function credentialsWithheld(config: unknown): boolean {
  const vpn = typeof config === 'object' && config !== null ? (config as { vpn?: unknown }).vpn : undefined;
  return typeof vpn === 'object' && vpn !== null && (vpn as { credentials?: unknown }).credentials === null;
}

/**
 * Checks the editor's text in the browser with the shared config schema (contracts/device/config.ts).
 * Where the credentials were withheld and still are, their absence is not an issue of the config.
 */
export function checkConfigText(text: string, { withheld = false }: { withheld?: boolean } = {}): ConfigCheck {
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    return { kind: 'notJson', reason: error instanceof Error ? error.message : String(error) };
  }
  const ignoreCredentials = withheld && credentialsWithheld(config);
  return { kind: 'json', config, issues: configIssues(config).filter((issue) => !(ignoreCredentials && issue.path === 'vpn.credentials')) };
}

/** The refusals of a device write that are about the device and its config (console.md section 8), shown beside the editor. */
const deviceRefusals = ['in_production', 'no_valid_config', 'not_all_assets_have_identifier', 'asset_identifiers_are_not_unique'] as const;

/**
 * The issues of a refused save: invalid_config carries each as { key: path, details: message };
 * the device rules (in_production, no_valid_config, ...) are one issue with the catalogue's text;
 * null for any other failure (forbidden, a network failure), which the error snackbar shows.
 */
export function issuesOfRefusal(error: unknown): ConfigIssue[] | null {
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
