import { testApp, type TestApp } from '../test-support/app';
import { demoOrganizationName, ensureDemoFleet } from './demo';

describe('the demo fleet', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('is made once: an organisation with three exposed, steerable devices of every asset category, found again on the next start', async () => {
    const first = await ensureDemoFleet(t.services);
    expect(first.created).toBe(true);
    expect(first.deviceHashIds).toHaveLength(3);
    const ops = await t.signIn(['gridport.ops']);
    const device = await t.app.inject({ method: 'GET', url: `/console-admin/v1/device/${first.deviceHashIds[0]}`, headers: { cookie: ops } });
    expect(device.json()).toMatchObject({ name: 'Windpark Zuid', organizationName: demoOrganizationName, isExposedToCustomer: true, cloudApi: 'READ_WRITE' });
    expect(new Set((device.json() as { assets: { category: string }[] }).assets.map((asset) => asset.category)).size).toBe(12);

    const again = await ensureDemoFleet(t.services);
    expect(again).toEqual({ created: false, organizationHashId: first.organizationHashId, deviceHashIds: first.deviceHashIds });
  });
});
