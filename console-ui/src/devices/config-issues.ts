import { configIssues } from '../../../contracts/device/config';
import type { ValidationIssue } from '../../../contracts/errors';

/** What the editor's text is: not JSON, or JSON with the shared schema's issues (none when valid). */
export type ConfigCheck = { kind: 'notJson'; reason: string } | { kind: 'json'; config: unknown; issues: ValidationIssue[] };

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
