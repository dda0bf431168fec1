import {
  assetCategories,
  assetTypes,
  assetTypesByCategory,
  batteryTypes,
  categoryOfType,
  evGroupConnectorTypes,
  isAssetType,
  meterTypes,
  solarGroupConnectorTypes,
} from './asset-types';

describe('asset categories and types (device-model.md sections 3.2, 3.3)', () => {
  it('has the twelve categories', () => {
    expect(assetCategories).toEqual([
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
    ]);
  });

  it('has about 60 battery and about 27 meter types, with every example the spec names', () => {
    expect(batteryTypes).toHaveLength(60);
    expect(meterTypes).toHaveLength(27);
    expect(batteryTypes).toEqual(
      expect.arrayContaining(['demo-battery', 'alfen', 'fluence', 'huawei-ess', 'kehua', 'tesla-utility', 'polarium', 'hoymiles', 'gotion', 'smart-grid']),
    );
    expect(meterTypes).toEqual(expect.arrayContaining(['demo-meter', 'eastron', 'janitza', 'socomec', 'chint', 'wago']));
  });

  it('names no type twice, in any category', () => {
    expect(new Set(assetTypes).size).toBe(assetTypes.length);
  });

  it('has 8 ev-group and 26 solar-group connector types, each of its category and no group', () => {
    expect(evGroupConnectorTypes).toHaveLength(8);
    expect(solarGroupConnectorTypes).toHaveLength(26);
    expect(evGroupConnectorTypes.every((type) => categoryOfType(type) === 'ev')).toBe(true);
    expect(solarGroupConnectorTypes.every((type) => categoryOfType(type) === 'solar')).toBe(true);
    expect([...evGroupConnectorTypes, ...solarGroupConnectorTypes]).not.toEqual(expect.arrayContaining(['ev-group']));
    expect([...evGroupConnectorTypes, ...solarGroupConnectorTypes]).not.toEqual(expect.arrayContaining(['solar-group']));
  });

  it.each([
    ['sma-sunny-tripower', 'solar'],
    ['solar-group', 'solar'],
    ['vestas-rcs', 'wind'],
    ['janitza', 'meter'],
    ['alfen', 'battery'],
    ['sager-furnace', 'heat'],
    ['demo-irradiance-sensor', 'irradianceSensor'],
    ['demo-wind-sensor', 'windSensor'],
    ['demo-temperature-sensor', 'temperatureSensor'],
    ['alfen-ev-ng9xx', 'ev'],
    ['ev-group', 'ev'],
    ['elinex', 'generator'],
    ['test-modbus-inverter', 'misc'],
    ['ff-relay', 'relay'],
    ['toaster', undefined],
  ])('categoryOfType(%s) is %s', (type, category) => {
    expect(categoryOfType(type)).toBe(category);
    expect(isAssetType(type)).toBe(category !== undefined);
  });

  it('lists every type of every category in assetTypes', () => {
    expect(assetTypes).toHaveLength(assetCategories.reduce((sum, category) => sum + assetTypesByCategory[category].length, 0));
  });
});
