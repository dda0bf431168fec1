import { exampleDeviceConfig, parseDeviceConfig, type DeviceConfig } from '../../../contracts/device';
import { GridportError } from '../../../contracts/errors';
import { checkedConfig, componentColumns, componentsOf, exposureProblem, identifierProblem, nominalActivePowerOf, redactedConfig } from './device-config';

const example = (): Record<string, unknown> => structuredClone(exampleDeviceConfig) as unknown as Record<string, unknown>;
const parsed = (): DeviceConfig => parseDeviceConfig(structuredClone(exampleDeviceConfig));

/** A problem as the API answers it. */
const answer = (problem: GridportError | null) => (problem === null ? null : { key: problem.key, details: problem.details });

describe('a device config, read by the device service', () => {
  it('gives one component row per asset and per control loop, each kind indexed from 0 in config order', () => {
    const config = parsed();
    const rows = componentsOf(7, config);
    const assets = rows.filter((row) => row.kind === 'asset');
    const controllers = rows.filter((row) => row.kind === 'controller');
    expect(assets).toHaveLength(16);
    expect(controllers).toHaveLength(18);
    expect(assets[0]).toEqual({
      deviceId: 7,
      kind: 'asset',
      index: 0,
      category: 'solar',
      type: 'sma-sunny-tripower',
      identifier: 'pv-roof',
      nominalActivePower: config.assets[0]?.nominalActivePower ?? null,
    });
    expect(controllers[0]).toEqual({
      deviceId: 7,
      kind: 'controller',
      index: 0,
      category: null,
      type: 'proportionalPeakShaver',
      identifier: 'peak-shaver',
      nominalActivePower: null,
    });
    expect(assets.map((row) => row.index)).toEqual([...Array(16).keys()]);
    expect(controllers.map((row) => row.index)).toEqual([...Array(18).keys()]);
    expect(componentsOf(7, null)).toEqual([]);
  });

  it('sums the nominal active power of the assets only, a missing one counting 0', () => {
    expect(
      nominalActivePowerOf([
        { deviceId: 1, kind: 'asset', index: 0, category: 'solar', type: 'a', identifier: 'a', nominalActivePower: 1500 },
        { deviceId: 1, kind: 'asset', index: 1, category: 'battery', type: 'b', identifier: 'b', nominalActivePower: null },
        { deviceId: 1, kind: 'controller', index: 0, category: null, type: 'c', identifier: 'c', nominalActivePower: 9999 },
        { deviceId: 1, kind: 'asset', index: 2, category: 'wind', type: 'd', identifier: 'd', nominalActivePower: 250 },
      ]),
    ).toBe(1750);
    expect(nominalActivePowerOf([])).toBe(0);
  });

  it('writes component rows as device_components columns', () => {
    expect(
      componentColumns([{ deviceId: 3, kind: 'asset', index: 2, category: 'solar', type: 'sma-sunny-tripower', identifier: 'pv', nominalActivePower: 10 }]),
    ).toEqual([{ device_id: 3, kind: 'asset', index: 2, category: 'solar', type: 'sma-sunny-tripower', identifier: 'pv', nominal_active_power: 10 }]);
  });

  it('checks a config before it is stored: defaults applied, nothing undefined, and every issue as { key, details }', () => {
    const stored = checkedConfig(example());
    expect(stored).toEqual(JSON.parse(JSON.stringify(parsed())));
    expect(checkedConfig(stored)).toEqual(stored);

    const broken = { ...example(), reportingIntervalInSec: 'often', maintenanceWindow: 'always' };
    let refusal: unknown;
    try {
      checkedConfig(broken);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GridportError);
    const { key, details } = refusal as GridportError;
    expect(key).toBe('invalid_config');
    const issues = (details as { issues: { key: string; details: string }[] }).issues;
    expect(issues).toEqual([
      {
        key: 'reportingIntervalInSec',
        details: 'reportingIntervalInSec must be a `number` type, but the final value was: `NaN` (cast from the value `"often"`).',
      },
      { key: 'maintenanceWindow', details: 'maintenanceWindow must be a `object` type, but the final value was: `"always"`.' },
    ]);
  });

  it('names the assets without an identifier (blank counts as none), then the first identifier used twice', () => {
    const config = example();
    const assets = config.assets as { identifier?: string | null }[];
    expect(identifierProblem(config)).toBeNull();

    const missing = structuredClone(config);
    const missingAssets = missing.assets as { identifier?: string | null }[];
    delete missingAssets[1]?.identifier;
    Object.assign(missingAssets[4] ?? {}, { identifier: '   ' });
    Object.assign(missingAssets[6] ?? {}, { identifier: null });
    expect(answer(identifierProblem(missing))).toEqual({ key: 'not_all_assets_have_identifier', details: { assetIndices: [1, 4, 6] } });

    const twice = structuredClone(config);
    Object.assign((twice.assets as { identifier?: string }[])[5] ?? {}, { identifier: ` ${assets[2]?.identifier ?? ''} ` });
    expect(answer(identifierProblem(twice))).toEqual({ key: 'asset_identifiers_are_not_unique', details: { offendingIdentifier: assets[2]?.identifier } });

    expect(identifierProblem({ assets: 'none' })).toBeNull();
  });

  it('refuses exposure without a config, with the identifier rule first, and with any other issue as no_valid_config', () => {
    expect(exposureProblem(example())).toBeNull();
    expect(answer(exposureProblem(null))).toEqual({ key: 'no_valid_config', details: undefined });

    const twice = example();
    const assets = twice.assets as { identifier?: string }[];
    Object.assign(assets[1] ?? {}, { identifier: assets[0]?.identifier });
    expect(answer(exposureProblem(twice))).toEqual({ key: 'asset_identifiers_are_not_unique', details: { offendingIdentifier: 'pv-roof' } });

    expect(answer(exposureProblem({ ...example(), reportingIntervalInSec: 'often' }))).toEqual({ key: 'no_valid_config', details: undefined });
  });

  it('hides the VPN credentials from customers and leaves the rest, and the stored config, as they are', () => {
    const config = example();
    const redacted = redactedConfig(config);
    expect(redacted).toEqual({ ...config, vpn: { host: 'vpn.gridport.example', credentials: null } });
    expect((config.vpn as { credentials: unknown }).credentials).not.toBeNull();

    const withoutVpn = { ...example(), vpn: null };
    expect(redactedConfig(withoutVpn)).toBe(withoutVpn);
    expect(redactedConfig(null)).toBeNull();
  });
});
