/** The asset categories (device-model.md section 3.2). */
export const assetCategories = [
  'solar',
  'wind',
  'meter',
  'battery',
  'heat',
  'irradianceSensor',
  'windSensor',
  'temperatureSensor',
  'ev',
  'generator',
  'misc',
  'relay',
] as const;
export type AssetCategory = (typeof assetCategories)[number];

/** Solar types (device-model.md section 3.3). */
export const solarTypes = [
  'demo-solar',
  'efasolar',
  'fronius',
  'huawei-smartlogger',
  'sungrow-logger',
  'sma-inverter',
  'sma-sunny-tripower',
  'sungrow-string-inverter',
  'sma-datamanager',
  'huawei-inverter',
  'moxa',
  'sunspec-series100',
  'sunspec-series700',
  'meteocontrol-datalogger',
  'solaredge-inverter',
  'solar-group',
  'solplanet-inverter',
  'growatt-inverter',
  'goodwe-inverter',
  'sofar-inverter',
  'inaccess',
  'invt',
  'phoenix-contact-plc',
  'zebotec',
  'gantner',
  'saj',
  'solar-log',
  'be4energy',
  'solax-power',
  'autarco',
] as const;

/** Wind types (device-model.md section 3.3). */
export const windTypes = ['demo-wind', 'enercon', 'enercon-fcu', 'ewt', 'nordex', 'vestas', 'vestas-ap', 'vestas-rcs'] as const;

/**
 * Battery types (device-model.md section 3.3 names eight of "about 60"; the rest is our list of
 * storage systems and battery inverters a European platform meets, plus `gotion` and
 * `smart-grid`, whose defaults section 9 gives).
 */
export const batteryTypes = [
  'demo-battery',
  'alfen',
  'fluence',
  'huawei-ess',
  'kehua',
  'tesla-utility',
  'polarium',
  'hoymiles',
  'gotion',
  'smart-grid',
  'byd',
  'catl',
  'sungrow-st',
  'sungrow-sc',
  'sungrow-powertitan',
  'sma-sunny-island',
  'sma-sunny-central-storage',
  'victron',
  'pylontech',
  'solaredge-storage',
  'goodwe-battery',
  'growatt-battery',
  'sofar-battery',
  'solax-battery',
  'huawei-luna',
  'lg-resu',
  'tesla-powerwall',
  'sonnen',
  'e3dc',
  'powin',
  'wartsila',
  'nidec',
  'ads-tec',
  'freqcon',
  'jinko-ess',
  'trina-storage',
  'hithium',
  'eve-energy',
  'envision-aess',
  'sineng',
  'kstar',
  'deye',
  'alpha-ess',
  'fox-ess',
  'socomec-sunsys',
  'leclanche',
  'northvolt',
  'tesvolt',
  'intilion',
  'cegasa',
  'pixii',
  'nuvation',
  'saft',
  'invinity',
  'skoon',
  'kokam',
  'samsung-sdi',
  'ampace',
  'bess-modbus-generic',
  'zenobe',
] as const;

/**
 * Meter types (device-model.md section 3.3 names six of "about 27"; the rest is our list of
 * common Modbus energy meters and power analysers).
 */
export const meterTypes = [
  'demo-meter',
  'eastron',
  'janitza',
  'socomec',
  'chint',
  'wago',
  'abb-meter',
  'schneider-pm',
  'siemens-pac',
  'carlo-gavazzi',
  'iskra',
  'kamstrup',
  'landis-gyr',
  'phoenix-contact-em',
  'lovato',
  'finder',
  'circutor',
  'accuenergy',
  'satec',
  'sma-energy-meter',
  'fronius-smart-meter',
  'huawei-meter',
  'sungrow-meter',
  'solaredge-meter',
  'shelly-pro3em',
  'p1-smart-meter',
  'gantner-meter',
] as const;

/** Heat types (device-model.md section 3.3). */
export const heatTypes = ['demo-heat-storage', 'sager-furnace'] as const;

/** Sensor types: not named by the spec (section 3.3), so ours: a demo type and common Modbus sensors of each kind. */
export const irradianceSensorTypes = ['demo-irradiance-sensor', 'kipp-zonen-smp', 'imt-si-sensor', 'ingenieurburo-mencke-tegtmeyer'] as const;
export const windSensorTypes = ['demo-wind-sensor', 'thies-wind-sensor', 'gill-windsonic', 'lufft-wind-sensor'] as const;
export const temperatureSensorTypes = ['demo-temperature-sensor', 'modbus-temperature-sensor', 'pt100-module'] as const;

/** EV types (device-model.md section 3.3). */
export const evTypes = [
  'demo-ev',
  'abl',
  'alfen-ev-ng9xx',
  'alpitronic',
  'phoenix-contact-charx',
  'ev-group',
  'siemens-sicharger',
  'vd-sijs',
  'flexecharge',
  'kempower',
  'peblar',
] as const;

/** Generator types (device-model.md section 3.3). */
export const generatorTypes = ['bredenoord-r1845', 'demo-generator', 'elinex'] as const;

/** Misc (test) types (device-model.md section 3.3). */
export const miscTypes = ['test-modbus-inverter', 'test-asset', 'abb-protection-relay'] as const;

/** Relay types (device-model.md section 3.3). */
export const relayTypes = ['waveshare-relay', 'ff-relay', 'demo-relay'] as const;

/** The asset types of each category (device-model.md section 3.3). */
export const assetTypesByCategory = {
  solar: solarTypes,
  wind: windTypes,
  meter: meterTypes,
  battery: batteryTypes,
  heat: heatTypes,
  irradianceSensor: irradianceSensorTypes,
  windSensor: windSensorTypes,
  temperatureSensor: temperatureSensorTypes,
  ev: evTypes,
  generator: generatorTypes,
  misc: miscTypes,
  relay: relayTypes,
} as const satisfies Record<AssetCategory, readonly string[]>;

export type AssetTypeOf<C extends AssetCategory> = (typeof assetTypesByCategory)[C][number];
export type AssetType = AssetTypeOf<AssetCategory>;

/** Every asset type, in category order. */
export const assetTypes: readonly AssetType[] = assetCategories.flatMap((category) => assetTypesByCategory[category]);

/**
 * The charger types an ev-group may hold as assetConnectors (section 3.3: eight). Every EV type
 * but the group itself and vd-sijs and flexecharge, which are site-level charging controllers
 * that already aggregate their chargers.
 */
export const evGroupConnectorTypes = [
  'demo-ev',
  'abl',
  'alfen-ev-ng9xx',
  'alpitronic',
  'phoenix-contact-charx',
  'siemens-sicharger',
  'kempower',
  'peblar',
] as const satisfies readonly AssetTypeOf<'ev'>[];

/**
 * The solar types a solar-group may hold as assetConnectors (section 3.3: 26). Every solar type
 * but the group itself and the three plant controllers that already steer a whole plant
 * (huawei-smartlogger, sungrow-logger, sma-datamanager).
 */
export const solarGroupConnectorTypes = solarTypes.filter(
  (type): type is Exclude<AssetTypeOf<'solar'>, 'solar-group' | 'huawei-smartlogger' | 'sungrow-logger' | 'sma-datamanager'> =>
    type !== 'solar-group' && type !== 'huawei-smartlogger' && type !== 'sungrow-logger' && type !== 'sma-datamanager',
);

const categoryByType = new Map<string, AssetCategory>(
  assetCategories.flatMap((category) => assetTypesByCategory[category].map((type): [string, AssetCategory] => [type, category])),
);

/** The category of an asset type, or undefined for a string that is no asset type. */
export function categoryOfType(type: string): AssetCategory | undefined {
  return categoryByType.get(type);
}

/** Whether a string is an asset type. */
export function isAssetType(type: string): type is AssetType {
  return categoryByType.has(type);
}
