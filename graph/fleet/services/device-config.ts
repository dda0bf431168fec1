// A device's stored config read the ways the device service needs it: checked and normalised
// before it is stored, judged for exposure to customers, redacted for them, and taken apart into
// the rows of device_components. No database here; the service decides when each applies.
import { categoryOfType, configIssues, parseDeviceConfig, type DeviceConfig } from '../../../contracts/device';
import { GridportError } from '../../../contracts/errors';
import type { DeviceComponentModel } from '../models/device-component.model';

/** A row of device_components. */
export type ComponentRow = Pick<DeviceComponentModel, 'deviceId' | 'kind' | 'index' | 'category' | 'type' | 'identifier' | 'nominalActivePower'>;

/** The rows of device_components a config gives: its assets and its active-control loops, by index. */
export function componentsOf(deviceId: number, config: DeviceConfig | null): ComponentRow[] {
  if (!config) {
    return [];
  }
  const assets = (config.assets as { type: string; identifier?: string | null; nominalActivePower?: number | null }[]).map((asset, index) => ({
    deviceId,
    kind: 'asset' as const,
    index,
    category: categoryOfType(asset.type) ?? null,
    type: asset.type,
    identifier: asset.identifier ?? null,
    nominalActivePower: asset.nominalActivePower ?? null,
  }));
  const controllers = ((config.activeControl ?? []) as { type: string; identifier?: string | null }[]).map((loop, index) => ({
    deviceId,
    kind: 'controller' as const,
    index,
    category: null,
    type: loop.type,
    identifier: loop.identifier ?? null,
    nominalActivePower: null,
  }));
  return [...assets, ...controllers];
}

/** The nominal active power of a device, in W: the sum over its assets. */
export function nominalActivePowerOf(components: readonly ComponentRow[]): number {
  return components.reduce((sum, component) => sum + (component.kind === 'asset' ? (component.nominalActivePower ?? 0) : 0), 0);
}

/** Component rows as device_components columns, for bulk inserts. */
export function componentColumns(components: readonly ComponentRow[]): Record<string, unknown>[] {
  return components.map((component) => ({
    device_id: component.deviceId,
    kind: component.kind,
    index: component.index,
    category: component.category,
    type: component.type,
    identifier: component.identifier,
    nominal_active_power: component.nominalActivePower,
  }));
}

/** A config with its defaults applied, or invalid_config with every issue as { key, details }. */
export function checkedConfig(config: Record<string, unknown>): Record<string, unknown> {
  const issues = configIssues(config);
  if (issues.length > 0) {
    throw new GridportError('invalid_config', { issues: issues.map(({ path, message }) => ({ key: path, details: message })) });
  }
  // As JSON holds it (no undefined members), so that an unchanged config compares equal to the stored one.
  return JSON.parse(JSON.stringify(parseDeviceConfig(config))) as Record<string, unknown>;
}

/** The identifier rule of exposure: every asset has an identifier, each used once (console.md section 5). */
export function identifierProblem(config: Record<string, unknown>): GridportError | null {
  const assets: unknown[] = Array.isArray(config.assets) ? config.assets : [];
  const identifiers = assets.map((asset) => {
    const identifier = (asset as { identifier?: unknown } | null)?.identifier;
    return typeof identifier === 'string' ? identifier.trim() : '';
  });
  const missing = identifiers.flatMap((identifier, index) => (identifier === '' ? [index] : []));
  if (missing.length > 0) {
    return new GridportError('not_all_assets_have_identifier', { assetIndices: missing });
  }
  const offendingIdentifier = identifiers.find((identifier, index) => identifiers.indexOf(identifier) !== index);
  return offendingIdentifier === undefined ? null : new GridportError('asset_identifiers_are_not_unique', { offendingIdentifier });
}

/**
 * A device may be shown to customers only with a valid config whose assets all carry an
 * identifier, each once (console.md section 4). The identifier rule is told first, by its own
 * key, even where the config schema would also refuse the duplicate.
 */
export function exposureProblem(config: Record<string, unknown> | null): GridportError | null {
  if (!config) {
    return new GridportError('no_valid_config');
  }
  return identifierProblem(config) ?? (configIssues(config).length > 0 ? new GridportError('no_valid_config') : null);
}

/** Secrets a customer never sees in a config: the VPN credentials. */
export function redactedConfig(config: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!config || typeof config.vpn !== 'object' || config.vpn === null) {
    return config;
  }
  return { ...config, vpn: { ...(config.vpn as Record<string, unknown>), credentials: null } };
}
