import pino from 'pino';
import { exampleDeviceConfig } from '../../../contracts/device';
import { deviceUpdateSchema } from '../../../contracts/fleet';
import type { StoredReport } from '../../../contracts/hub/reports';
import { validate } from '../../../contracts/validation';
import { captureLogs, testSecrets } from '../../../test-support/app';
import { testDatabase, type TestDatabase } from '../../../test-support/database';
import { buildDevice, buildDeviceGroup, buildOrganization, buildUser, insertDeviceRow } from '../../../test-support/factories';
import { systemActor } from '../../common/context';
import { HashIds } from '../../common/hash-ids';
import { createServices, type Services } from '../../services';
import { DevicePresenceService } from '../../fleet/services/device-presence.service';
import { InProcessPubSub } from '../../common/pubsub';
import { noMetrics } from '../../common/metrics';
import { MonitorEvaluator } from './monitor-evaluator';
import { MonitorSweep } from './monitor-sweep';

/** Alarms, the issues they make, the evaluator and the sweep, on the database (spec README "Alarms", "Issues from alarms"). */
describe('monitors and alarms in the database', () => {
  let database: TestDatabase;
  let services: Services;
  const log = pino({ level: 'silent' });
  let organizationId = 0;

  const servicesOn = (recoverySeconds: number) =>
    createServices({
      db: database.db,
      hashIds: new HashIds(testSecrets.hashIdSecret),
      sessionSecret: testSecrets.sessionSecret,
      encryptionKey: testSecrets.encryptionKey,
      alarms: { recoverySeconds },
    });

  beforeAll(async () => {
    database = await testDatabase();
    services = servicesOn(0);
    organizationId = (await buildOrganization(services)).id;
  });

  afterAll(async () => {
    await database.close();
  });

  const config = {
    version: 2,
    assets: [
      { type: 'demo-battery', identifier: 'BAT-1' },
      { type: 'demo-meter', identifier: 'MTR-1' },
    ],
    activeControl: [{ type: 'powerLimiter', identifier: 'limiter-1' }],
  };
  const aDevice = (columns: Record<string, unknown> = {}) =>
    insertDeviceRow(database.db, { organization_id: organizationId, config: JSON.stringify(config), ...columns });

  const alarmsOf = (deviceId: number) =>
    database.db('alarms').where('device_id', deviceId).orderBy('id') as Promise<
      {
        id: string;
        monitor: string;
        asset_identifier: string | null;
        issue_id: string | null;
        recovering_since: Date | null;
        closed_at: Date | null;
        customer_message: { to: string[]; markdown: string } | null;
        customer_message_sent_at: Date | null;
      }[]
    >;
  const issuesOf = (deviceId: number) =>
    database.db('issues').where('device_id', deviceId).orderBy('id') as Promise<
      {
        id: string;
        title: string;
        source: string;
        auto_close: boolean;
        can_reopen: boolean;
        gridport_issue_owner: boolean;
        closed_at: Date | null;
        closed_automatically: boolean;
        organization_id: string;
      }[]
    >;
  const messagesOf = async (issueId: string | number) =>
    ((await database.db('issue_messages').where('issue_id', issueId).orderBy('id')) as { source: string; message: string }[]).map(
      (row) => `${row.source}: ${row.message}`,
    );

  let reportNumber = 0;
  const report = (deviceId: number, type: string, observations: Record<string, unknown>, extra: { asset?: number; controller?: number } = {}): StoredReport => {
    reportNumber += 1;
    const at = new Date(Date.now() - 60_000 + reportNumber).toISOString();
    return {
      deviceId,
      reportId: `r${reportNumber}`,
      type,
      at,
      assetIndex: extra.asset ?? null,
      controllerIndex: extra.controller ?? null,
      body: { type, at, ...extra, observations },
    };
  };
  const statistics = (success: number, timeout: number) => ({
    connectionStatistics: { success, queueFull: 0, invalidRequest: 0, notReady: 0, connectionError: 0, timeout, responseError: 0 },
  });

  it('opens one alarm with its issue, customer message and timeline; recovers; closes after the recovery time; the issue closes itself', async () => {
    const outageUser = await buildUser(services, { organizationHashId: services.hashIds.encode('organization', organizationId), rights: ['customer.read'] });
    const group = await buildDeviceGroup(services, {
      organizationHashId: services.hashIds.encode('organization', organizationId),
      deviceOutageEmails: ['group-contact@example.com'],
    });
    const deviceId = await aDevice({
      name: 'Windpark Noord',
      device_group_id: group.id,
      outage_emails: JSON.stringify(['site@example.com', 'SITE@example.com']),
      outage_user_ids: JSON.stringify([outageUser.id]),
    });
    const key = { monitor: 'device.disconnect.duration' as const, deviceId, assetIdentifier: null };

    expect(await services.alarms.fire(key, { lastSeenAt: null })).toBe('opened');
    expect(await services.alarms.fire(key)).toBe('open');
    await services.alarms.settled();

    const [alarm] = await alarmsOf(deviceId);
    expect(alarm).toMatchObject({ monitor: 'device.disconnect.duration', asset_identifier: null, recovering_since: null, closed_at: null });
    expect(alarm?.customer_message?.to).toEqual(['site@example.com', outageUser.email, 'group-contact@example.com']);
    expect(alarm?.customer_message?.markdown).toContain('**Windpark Noord**');
    expect(alarm?.customer_message_sent_at).toBeInstanceOf(Date);
    const mails = (await database
      .db('mails')
      .whereRaw("subject like 'Gridport alarm:%'")
      .whereRaw('"to" @> ?::jsonb', [JSON.stringify(['site@example.com'])])) as {
      subject: string;
      to: string[];
    }[];
    expect(mails).toEqual([
      expect.objectContaining({ subject: 'Gridport alarm: Device offline', to: ['site@example.com', outageUser.email, 'group-contact@example.com'] }),
    ]);

    const [issue] = await issuesOf(deviceId);
    expect(issue).toMatchObject({
      title: 'Device offline',
      source: 'monitoring',
      auto_close: true,
      can_reopen: true,
      gridport_issue_owner: true,
      closed_at: null,
    });
    expect(Number(issue?.organization_id)).toBe(organizationId);
    expect(Number(alarm?.issue_id)).toBe(Number(issue?.id));

    expect(await services.alarms.clear(key)).toBe(true);
    expect(await services.alarms.clear(key)).toBe(false);
    expect((await alarmsOf(deviceId))[0]?.recovering_since).toBeInstanceOf(Date);

    // Recovery time 0 here: the next close pass closes it, and the issue, left without an open alarm, resolves itself.
    expect(await services.alarms.closeRecovered()).toBeGreaterThanOrEqual(1);
    expect((await alarmsOf(deviceId))[0]?.closed_at).toBeInstanceOf(Date);
    expect((await issuesOf(deviceId))[0]).toMatchObject({ closed_automatically: true, closed_at: expect.any(Date) });
    expect(await messagesOf(issue?.id ?? 0)).toEqual([
      'monitoring: Alarm **Device offline** (`device.disconnect.duration`) opened.',
      'monitoring: **Device offline** (`device.disconnect.duration`) cleared; the alarm closes if it stays clear.',
      'monitoring: Alarm **Device offline** (`device.disconnect.duration`) closed: clear for 0 s.',
      'monitoring: All alarms closed: the issue resolved itself.',
    ]);
    const audit = (await database.db('audit_log').where({ object_type: 'devices', object_id: deviceId, change_type: 'deviceGatewayMonitoring' })) as unknown[];
    expect(audit).toHaveLength(3);

    // Fires again later: a new alarm, on the same issue, reopened (within 24 hours of its auto-close).
    expect(await services.alarms.fire(key)).toBe('opened');
    const issues = await issuesOf(deviceId);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ closed_at: null, closed_automatically: false });
    expect(await alarmsOf(deviceId)).toHaveLength(2);
    expect((await messagesOf(issue?.id ?? 0)).slice(-2)).toEqual([
      'monitoring: A new alarm within 24 hours: the issue reopened.',
      'monitoring: Alarm **Device offline** (`device.disconnect.duration`) opened.',
    ]);
  });

  it('groups the alarms of a device into its open monitoring issue, which closes only when all are closed', async () => {
    const deviceId = await aDevice();
    const other = await aDevice();
    await services.alarms.fire({ monitor: 'asset.connectivity', deviceId, assetIdentifier: 'BAT-1' });
    await services.alarms.fire({ monitor: 'asset.connectivity', deviceId, assetIdentifier: 'MTR-1' });
    await services.alarms.fire({ monitor: 'device.restart', deviceId, assetIdentifier: null });
    await services.alarms.fire({ monitor: 'device.restart', deviceId: other, assetIdentifier: null });
    const issues = await issuesOf(deviceId);
    expect(issues.map((issue) => issue.title)).toEqual(['Asset unreachable']);
    expect(new Set((await alarmsOf(deviceId)).map((alarm) => Number(alarm.issue_id)))).toEqual(new Set([Number(issues[0]?.id)]));
    expect((await issuesOf(other)).map((issue) => issue.title)).toEqual(['Device restarts often']);

    await services.alarms.clear({ monitor: 'asset.connectivity', deviceId, assetIdentifier: 'BAT-1' });
    await services.alarms.clear({ monitor: 'asset.connectivity', deviceId, assetIdentifier: 'MTR-1' });
    await services.alarms.closeRecovered();
    expect((await issuesOf(deviceId))[0]?.closed_at).toBeNull();
    await services.alarms.clear({ monitor: 'device.restart', deviceId, assetIdentifier: null });
    await services.alarms.closeRecovered();
    expect((await issuesOf(deviceId))[0]).toMatchObject({ closed_automatically: true });
  });

  it('opens a new issue instead of reopening when the issue may not reopen, or closed itself more than 24 hours ago', async () => {
    const key = (deviceId: number) => ({ monitor: 'device.restart' as const, deviceId, assetIdentifier: null });
    const cycle = async (deviceId: number) => {
      await services.alarms.fire(key(deviceId));
      await services.alarms.clear(key(deviceId));
      await services.alarms.closeRecovered();
    };
    const noReopen = await aDevice();
    await cycle(noReopen);
    await database.db('issues').where('device_id', noReopen).update({ can_reopen: false });
    await services.alarms.fire(key(noReopen));
    expect((await issuesOf(noReopen)).map((issue) => issue.closed_at === null)).toEqual([false, true]);

    const longAgo = await aDevice();
    await cycle(longAgo);
    await database
      .db('issues')
      .where('device_id', longAgo)
      .update({ closed_at: database.db.raw("now() - interval '25 hours'") });
    await services.alarms.fire(key(longAgo));
    expect((await issuesOf(longAgo)).map((issue) => issue.closed_at === null)).toEqual([false, true]);
  });

  it('makes one alarm and one issue when two evaluators (two nodes) fire the same alarm at once', async () => {
    const deviceId = await aDevice({ outage_emails: JSON.stringify(['race@example.com']) });
    const otherNode = servicesOn(0);
    const key = { monitor: 'asset.powerUnresponsive' as const, deviceId, assetIdentifier: 'BAT-1' };
    const outcomes = await Promise.all([services.alarms.fire(key), otherNode.alarms.fire(key), services.alarms.fire(key), otherNode.alarms.fire(key)]);
    await Promise.all([services.alarms.settled(), otherNode.alarms.settled()]);
    expect(outcomes.filter((outcome) => outcome === 'opened')).toHaveLength(1);
    expect(await alarmsOf(deviceId)).toHaveLength(1);
    expect(await issuesOf(deviceId)).toHaveLength(1);
    const mails = (await database.db('mails').whereRaw('"to" @> ?::jsonb', [JSON.stringify(['race@example.com'])])) as unknown[];
    expect(mails).toHaveLength(1);
  });

  it('leaves a monitor the device turned off alone, and closes its open alarms at once', async () => {
    const deviceId = await aDevice();
    await services.alarms.fire({ monitor: 'asset.connectivity', deviceId, assetIdentifier: 'BAT-1' });
    await database
      .db('devices')
      .where('id', deviceId)
      .update({ monitor_settings: JSON.stringify({ disabledMonitors: ['asset'] }) });
    expect(await services.alarms.fire({ monitor: 'asset.connectivity', deviceId, assetIdentifier: 'MTR-1' })).toBe('disabled');
    await services.alarms.closeRecovered();
    expect((await alarmsOf(deviceId)).map((alarm) => alarm.closed_at !== null)).toEqual([true]);
  });

  describe('a saved config that drops an asset or a control loop', () => {
    const actor = systemActor('test');
    /** A config the device service accepts (the example's network and intervals) with these assets and loops. */
    const configOf = (assets: [type: string, identifier: string][], activeControl: object[] = []) => ({
      ...exampleDeviceConfig,
      assets: assets.map(([type, identifier]) => ({ type, identifier, communication: { type: 'none' } })),
      activeControl,
    });
    const limiter = (meterAssetIndex: number, asset: number) => ({
      type: 'powerLimiter',
      identifier: 'limiter-1',
      meterAssetIndex,
      primaryLimitableAssetIndices: [asset],
      contractualLimit: { feedIn: 50_000 },
    });
    /** The config above as the device service accepts it. */
    const saved = configOf(
      [
        ['demo-battery', 'BAT-1'],
        ['demo-meter', 'MTR-1'],
      ],
      [limiter(1, 0)],
    );
    const withConfig = async (next: object, hashId: string) =>
      services.devices.update(actor, hashId, validate(deviceUpdateSchema, { config: structuredClone(next) }, 'payload_invalid'));
    const openAlarms = async (deviceId: number) =>
      (await alarmsOf(deviceId)).filter((alarm) => alarm.closed_at === null).map((alarm) => `${alarm.monitor} ${alarm.asset_identifier ?? ''}`.trim());

    it('closes at once the alarms of assets and loops it no longer has, or of kinds that no longer apply, and keeps the others', async () => {
      const device = await buildDevice(services, { organizationHashId: services.hashIds.encode('organization', organizationId), config: saved });
      const deviceId = device.id;
      for (const [monitor, assetIdentifier] of [
        ['asset.connectivity', 'BAT-1'],
        ['battery.alarm', 'BAT-1'],
        ['asset.connectivity', 'MTR-1'],
        ['meter.alarm', 'MTR-1'],
        ['activeControl.slowControlLoop', 'limiter-1'],
        ['device.restart', null],
      ] as const) {
        expect(await services.alarms.fire({ monitor, deviceId, assetIdentifier })).toBe('opened');
      }
      const [issue] = await issuesOf(deviceId);

      // An unchanged config closes nothing; a change that only reorders the same assets neither.
      await withConfig(saved, device.hashId);
      await withConfig(
        configOf(
          [
            ['demo-meter', 'MTR-1'],
            ['demo-battery', 'BAT-1'],
          ],
          [limiter(0, 1)],
        ),
        device.hashId,
      );
      expect(await openAlarms(deviceId)).toHaveLength(6);

      // The battery and the loop are gone: their alarms close; the meter's and the device's stay.
      await withConfig(configOf([['demo-meter', 'MTR-1']]), device.hashId);
      expect(await openAlarms(deviceId)).toEqual(['asset.connectivity MTR-1', 'meter.alarm MTR-1', 'device.restart']);
      expect((await issuesOf(deviceId))[0]?.closed_at).toBeNull();

      // MTR-1 is now a battery: a meter's alarm no longer applies to it; its connectivity still does.
      await withConfig(configOf([['demo-battery', 'MTR-1']]), device.hashId);
      expect(await openAlarms(deviceId)).toEqual(['asset.connectivity MTR-1', 'device.restart']);

      expect((await messagesOf(issue?.id ?? 0)).filter((message) => message.includes('closed'))).toEqual([
        "monitoring: Alarm **Asset unreachable** (`asset.connectivity`, BAT-1) closed: the device's config no longer has asset BAT-1 that this monitor watches.",
        "monitoring: Alarm **Battery reports an alarm** (`battery.alarm`, BAT-1) closed: the device's config no longer has asset BAT-1 that this monitor watches.",
        "monitoring: Alarm **Control loop too slow** (`activeControl.slowControlLoop`, limiter-1) closed: the device's config no longer has control loop limiter-1 that this monitor watches.",
        "monitoring: Alarm **Meter reports an alarm** (`meter.alarm`, MTR-1) closed: the device's config no longer has asset MTR-1 that this monitor watches.",
      ]);
      const audit = (await database
        .db('audit_log')
        .where({ object_type: 'devices', object_id: deviceId, change_type: 'deviceGatewayMonitoring' })
        .orderBy('id')) as { diff: { name: string; newValue: unknown }[] }[];
      expect(audit.filter((entry) => entry.diff.some((d) => d.name === 'alarm' && d.newValue === 'closed'))).toHaveLength(4);
    });

    it('resolves the auto-closing issue once the last alarm closes with the config change', async () => {
      const device = await buildDevice(services, { organizationHashId: services.hashIds.encode('organization', organizationId), config: saved });
      await services.alarms.fire({ monitor: 'asset.setpointUnresponsive', deviceId: device.id, assetIdentifier: 'BAT-1' });
      await withConfig(configOf([['demo-meter', 'MTR-1']]), device.hashId);
      const [issue] = await issuesOf(device.id);
      expect(issue).toMatchObject({ closed_automatically: true, closed_at: expect.any(Date) });
      expect((await messagesOf(issue?.id ?? 0)).slice(-2)).toEqual([
        "monitoring: Alarm **Asset does not confirm its setpoint** (`asset.setpointUnresponsive`, BAT-1) closed: the device's config no longer has asset BAT-1 that this monitor watches.",
        'monitoring: All alarms closed: the issue resolved itself.',
      ]);
    });

    it('lets the evaluator fire a new alarm when the asset comes back with the next config the device runs', async () => {
      const device = await buildDevice(services, {
        organizationHashId: services.hashIds.encode('organization', organizationId),
        config: saved,
        monitorSettings: { acceptableBadConnectionCount: 1 },
      });
      const evaluator = new MonitorEvaluator(database.db, services.alarms, log);
      const bad = () => report(device.id, 'batteryPower', { activePower: 0, ...statistics(1, 9) }, { asset: 0 });
      evaluator.evaluate([bad(), bad()]);
      await evaluator.idle();
      expect(await openAlarms(device.id)).toEqual(['asset.connectivity BAT-1']);

      await withConfig(configOf([['demo-meter', 'MTR-1']]), device.hashId);
      expect(await openAlarms(device.id)).toEqual([]);
      await withConfig(saved, device.hashId);
      // The device runs the config it was sent and reports it: the evaluator reads the config and the open alarms again.
      evaluator.evaluate([report(device.id, 'config', { source: 'cloud', messageId: '1', config: saved })]);
      await evaluator.idle();
      evaluator.evaluate([bad(), bad()]);
      await evaluator.idle();
      expect(await openAlarms(device.id)).toEqual(['asset.connectivity BAT-1']);
      expect(await alarmsOf(device.id)).toHaveLength(2);
      await evaluator.close();
    });
  });

  it('evaluates reports: asset connectivity after more than acceptableBadConnectionCount bad reports, agent alarms by code; a restarted evaluator keeps the state', async () => {
    const deviceId = await aDevice({ monitor_settings: JSON.stringify({ acceptableBadConnectionCount: 2, thresholdPercentage: 20 }) });
    const evaluator = new MonitorEvaluator(database.db, services.alarms, log);
    const bad = () => report(deviceId, 'batteryPower', { activePower: 0, ...statistics(5, 5) }, { asset: 0 });
    const good = () => report(deviceId, 'batteryPower', { activePower: 0, ...statistics(10, 0) }, { asset: 0 });
    evaluator.evaluate([bad(), bad()]);
    await evaluator.idle();
    expect(await alarmsOf(deviceId)).toEqual([]);
    evaluator.evaluate([bad()]);
    evaluator.evaluate([
      report(deviceId, 'alarm', { code: 'activeControl.slowControlLoop', level: 'warning', active: true, description: 'control loop 0: 900 ms' }),
      report(deviceId, 'alarm', { code: 'E042', level: 'fault', active: true }, { asset: 0 }),
    ]);
    await evaluator.idle();
    expect((await alarmsOf(deviceId)).map((alarm) => [alarm.monitor, alarm.asset_identifier])).toEqual([
      ['asset.connectivity', 'BAT-1'],
      ['activeControl.slowControlLoop', 'limiter-1'],
      ['battery.alarm', 'BAT-1'],
    ]);
    // Messages from the device are audited apart (MessageFromDeviceService), not by the evaluator.
    expect(await database.db('audit_log').where({ object_type: 'devices', object_id: deviceId, change_type: 'messageFromDevice' })).toEqual([]);

    // A new evaluator (the node restarted) takes up the open alarms: more bad reports open nothing new; good ones clear.
    const restarted = new MonitorEvaluator(database.db, services.alarms, log);
    restarted.evaluate([bad(), bad(), bad(), bad()]);
    await restarted.idle();
    expect(await alarmsOf(deviceId)).toHaveLength(3);
    restarted.evaluate([
      good(),
      good(),
      report(deviceId, 'alarm', { code: 'activeControl.slowControlLoop', level: 'info', active: false, description: 'control loop 0: ok' }),
    ]);
    await restarted.idle();
    expect((await alarmsOf(deviceId)).map((alarm) => [alarm.monitor, alarm.recovering_since !== null])).toEqual([
      ['asset.connectivity', true],
      ['activeControl.slowControlLoop', true],
      ['battery.alarm', false],
    ]);
    expect(restarted.stats.writes).toBeLessThan(10);
    await restarted.close();
    await evaluator.close();
  });

  it('reads loop status (slow iterations, uncontrollable assets), setpoints and the identifiers read from assets', async () => {
    const deviceId = await aDevice({ monitor_settings: JSON.stringify({ acceptableBadConnectionCount: 1, thresholdPercentage: 10 }) });
    const evaluator = new MonitorEvaluator(database.db, services.alarms, log);
    const status = (iterationMs: number, uncontrollableAssets: number[]) =>
      report(
        deviceId,
        'powerLimiterStatus',
        { state: 'active', iterationMs, unlimitableAssets: [], uncontrollableAssets, unreadableAssets: [] },
        { controller: 0 },
      );
    const battery = (activePower: number, effective: number, confirmed: number) =>
      report(deviceId, 'batteryPower', { activePower, setpoints: { confirmed, desired: { cloud: effective }, effective } }, { asset: 0 });
    const open = async () =>
      (await alarmsOf(deviceId))
        .filter((alarm) => alarm.closed_at === null && alarm.recovering_since === null)
        .map((alarm) => `${alarm.monitor} ${alarm.asset_identifier ?? ''}`)
        .sort();

    // One slow iteration (the step is 100 ms by default) is accepted; two in a row fire.
    evaluator.evaluate([status(250, []), battery(-5000, -5000, -5000)]);
    await evaluator.idle();
    expect(await open()).toEqual([]);
    evaluator.evaluate([
      status(250, [1]),
      status(250, [1]),
      battery(-1000, -5000, -2000),
      battery(-1000, -5000, -2000),
      report(deviceId, 'assetIdentifiers', {
        assets: [
          { asset: 0, identifier: 'BAT-2' },
          { asset: 1, identifier: 'MTR-1' },
        ],
      }),
    ]);
    await evaluator.idle();
    expect(await open()).toEqual([
      'activeControl.assetsTooOftenUncontrollable limiter-1',
      'activeControl.slowControlLoop limiter-1',
      'asset.powerUnresponsive BAT-1',
      'asset.setpointUnresponsive BAT-1',
      'battery.metadataMismatch BAT-1',
    ]);
    evaluator.evaluate([status(40, []), battery(-5000, -5000, -5000), report(deviceId, 'assetIdentifiers', { assets: [{ asset: 0, identifier: 'BAT-1' }] })]);
    await evaluator.idle();
    expect(await open()).toEqual([]);
    await evaluator.close();
  });

  it('takes a device up afresh after it was forgotten (it connected again, perhaps to another node that closed its alarm meanwhile)', async () => {
    const deviceId = await aDevice({ monitor_settings: JSON.stringify({ acceptableBadConnectionCount: 1 }) });
    const here = new MonitorEvaluator(database.db, services.alarms, log);
    const elsewhere = new MonitorEvaluator(database.db, services.alarms, log);
    const bad = () => report(deviceId, 'meterPower', { activePower: 0, ...statistics(1, 9) }, { asset: 1 });
    const good = () => report(deviceId, 'meterPower', { activePower: 0, ...statistics(10, 0) }, { asset: 1 });
    here.evaluate([bad(), bad()]);
    await here.idle();
    elsewhere.evaluate([good()]);
    await elsewhere.idle();
    await services.alarms.closeRecovered();
    expect((await alarmsOf(deviceId)).map((alarm) => alarm.closed_at !== null)).toEqual([true]);

    // Back here: without forgetting, this node would still believe the alarm open and raise nothing.
    here.forget(deviceId);
    here.evaluate([bad(), bad()]);
    await here.idle();
    expect((await alarmsOf(deviceId)).map((alarm) => alarm.closed_at !== null)).toEqual([true, false]);
    await here.close();
    await elsewhere.close();
  });

  it('counts agent starts and on-site config writes from the stored config reports, and a loop that failed to start until a config runs whole', async () => {
    const deviceId = await aDevice({ monitor_settings: JSON.stringify({ acceptableBadConnectionCount: 1 }) });
    const evaluator = new MonitorEvaluator(database.db, services.alarms, log);
    /** A config report as the ingest stores it, then handed to the evaluator. */
    const stored = async (observations: Record<string, unknown>) => {
      const row = report(deviceId, 'config', observations);
      await database.db('device_reports').insert({
        device_id: deviceId,
        report_id: row.reportId,
        type: 'config',
        at: row.at,
        body: JSON.stringify(row.body),
      });
      evaluator.evaluate([row]);
      await evaluator.idle();
    };
    const monitors = async () =>
      (await alarmsOf(deviceId)).filter((alarm) => alarm.closed_at === null && alarm.recovering_since === null).map((alarm) => alarm.monitor);

    await stored({ source: 'default', config });
    expect(await monitors()).toEqual([]);
    // A second start within the hour is more than one: device.restart. The stored config, unchanged, is no on-site write.
    await stored({ source: 'local', config });
    expect(await monitors()).toEqual(['device.restart']);
    await stored({ source: 'cloud', messageId: '7', config: { ...config, assets: [] } });
    await stored({ source: 'local', config });
    await stored({ source: 'local', config: { ...config, assets: [] } });
    expect(await monitors()).toEqual(['device.restart', 'device.localConfigWriteFrequency']);

    // A loop that did not start; the config report of that same run keeps the alarm, the next run without a failure clears it.
    evaluator.evaluate([report(deviceId, 'error', { code: 'unsupported_control_loop', message: 'control loop 0 (powerLimiter): not built on this agent' })]);
    await evaluator.idle();
    await stored({ source: 'cloud', messageId: '8', config });
    expect(await monitors()).toContain('device.failedToInitializeActiveControl');
    await stored({ source: 'cloud', messageId: '9', config });
    expect(await monitors()).not.toContain('device.failedToInitializeActiveControl');

    // An hour later the counts have fallen: the sweep clears both.
    await database
      .db('device_reports')
      .where('device_id', deviceId)
      .update({ received_at: database.db.raw("now() - interval '2 hours'") });
    const sweep = new MonitorSweep(database.db, services.alarms, { sweepSeconds: 60 }, log);
    await sweep.runOnce();
    await sweep.stop();
    expect(await monitors()).toEqual([]);
    await evaluator.close();
  });

  it('fires disconnect frequency per interface class and cloud connectivity from the connection events, and clears them as the windows pass', async () => {
    const deviceId = await aDevice({ monitor_settings: JSON.stringify({ acceptableBadConnectionCount: 2, thresholdPercentage: 1 }) });
    const event = (kind: string, networkInterface: string, minutesAgo: number) => ({
      device_id: deviceId,
      kind,
      network_interface: networkInterface,
      at: database.db.raw(`now() - make_interval(mins => ${minutesAgo})`),
    });
    // Three cellular drops within the hour (more than 2), about 40 minutes offline in all (more than 1 % of the day).
    await database
      .db('device_connection_events')
      .insert([
        event('connected', 'wwan0', 200),
        event('disconnected', 'wwan0', 50),
        event('connected', 'wwan0', 40),
        event('disconnected', 'wwan0', 35),
        event('connected', 'wwan0', 20),
        event('disconnected', 'wwan0', 15),
        event('connected', 'eth0', 1),
        event('disconnected', 'eth0', 0),
      ]);
    await database
      .db('devices')
      .where('id', deviceId)
      .update({ online: true, network_interface: 'eth0', last_seen_at: database.db.raw('now()') });
    const sweep = new MonitorSweep(database.db, services.alarms, { sweepSeconds: 60 }, log);
    await sweep.runOnce();
    const firing = async () =>
      (await alarmsOf(deviceId))
        .filter((alarm) => alarm.closed_at === null && alarm.recovering_since === null)
        .map((alarm) => alarm.monitor)
        .sort();
    expect(await firing()).toEqual(['device.cloud.connectivity', 'device.disconnect.frequency.cellular']);

    // Two days later: nothing in the windows, the device online: both clear.
    await database
      .db('device_connection_events')
      .where('device_id', deviceId)
      .update({ at: database.db.raw("at - interval '2 days'") });
    await sweep.runOnce();
    expect(await firing()).toEqual([]);
    await sweep.stop();
  });

  it('records connection events where sessions open and close, and the sweep fires and clears disconnect duration under one lease', async () => {
    const presence = new DevicePresenceService(database.db, new InProcessPubSub());
    const deviceId = await aDevice({ monitor_settings: JSON.stringify({ disconnectIntervalSeconds: 1 }) });
    await presence.startNode('node-a', { heartbeatSeconds: 1, leaseSeconds: 3 });
    await presence.connected({ deviceId, nodeId: 'node-a', connectionId: 'c1', networkInterface: 'eth0', version: null });
    await presence.disconnected(deviceId, 'c1');
    expect(
      ((await database.db('device_connection_events').where('device_id', deviceId).orderBy('id')) as { kind: string; network_interface: string }[]).map(
        (row) => [row.kind, row.network_interface],
      ),
    ).toEqual([
      ['connected', 'eth0'],
      ['disconnected', 'eth0'],
    ]);
    await database
      .db('devices')
      .where('id', deviceId)
      .update({ last_seen_at: database.db.raw("now() - interval '5 seconds'") });

    const first = new MonitorSweep(database.db, services.alarms, { sweepSeconds: 60 }, log);
    const second = new MonitorSweep(database.db, servicesOn(0).alarms, { sweepSeconds: 60 }, log);
    const [a, b] = [await first.runOnce(), await second.runOnce()];
    expect([a.leased, b.leased]).toEqual([true, false]);
    expect((await alarmsOf(deviceId)).map((alarm) => alarm.monitor)).toContain('device.disconnect.duration');

    await presence.connected({ deviceId, nodeId: 'node-a', connectionId: 'c2', networkInterface: 'eth0', version: null });
    await first.runOnce();
    // Recovery 0: cleared by this sweep, closed by the next one.
    await first.runOnce();
    const duration = (await alarmsOf(deviceId)).find((alarm) => alarm.monitor === 'device.disconnect.duration');
    expect(duration?.closed_at).toBeInstanceOf(Date);
    await first.stop();
    // The lease given up, the other node sweeps.
    expect((await second.runOnce()).leased).toBe(true);
    await second.stop();
  });

  describe("the evaluator's first read of many devices at once (a restart: every gateway reports together)", () => {
    /** The selects of devices and of open alarms by device that `db` runs while `work` does. */
    const readsDuring = async (work: () => Promise<void>) => {
      const reads = { devices: 0, openAlarms: 0 };
      const count = (query: { sql: string }) => {
        if (/^select .* from "devices" where "id" in \(/.test(query.sql)) {
          reads.devices += 1;
        }
        if (/^select .* from "alarms" where "device_id" in \(/.test(query.sql)) {
          reads.openAlarms += 1;
        }
      };
      database.db.on('query', count);
      try {
        await work();
      } finally {
        database.db.off('query', count);
      }
      return reads;
    };
    /** An evaluator that counts the reports it evaluated (a report waiting for its device's read counts when taken up). */
    const countingEvaluator = (logger = log) => {
      const evaluated = { count: 0 };
      const evaluator = new MonitorEvaluator(database.db, services.alarms, logger, {
        ...noMetrics,
        monitorReportsEvaluated: (count) => {
          evaluated.count += count;
        },
      });
      return { evaluator, evaluated };
    };
    const good = (deviceId: number, asset: number) => report(deviceId, 'batteryPower', { activePower: 0, ...statistics(10, 0) }, { asset });
    const bad = (deviceId: number, asset: number) => report(deviceId, 'batteryPower', { activePower: 0, ...statistics(1, 9) }, { asset });
    const firing = async (deviceId: number) =>
      (await alarmsOf(deviceId)).filter((alarm) => alarm.closed_at === null && alarm.recovering_since === null).map((alarm) => alarm.asset_identifier);

    afterEach(() => {
      jest.restoreAllMocks();
    });

    it('reads 600 devices reporting at once in batches of up to 500: two devices queries and two open-alarm queries, not 1,200', async () => {
      const deviceIds: number[] = [];
      for (let index = 0; index < 600; index += 1) {
        deviceIds.push(await aDevice());
      }
      const { evaluator, evaluated } = countingEvaluator();
      const reads = await readsDuring(async () => {
        evaluator.evaluate(deviceIds.map((deviceId) => good(deviceId, 0)));
        await evaluator.idle();
      });
      expect(reads).toEqual({ devices: 2, openAlarms: 2 });
      expect(evaluated.count).toBe(600);
      await evaluator.close();
    });

    it("puts each device's open alarms on that device, and drops a device that is gone (read again at its next report)", async () => {
      const settings = { monitor_settings: JSON.stringify({ acceptableBadConnectionCount: 1 }) };
      const [first, second, gone] = [await aDevice(settings), await aDevice(settings), await aDevice(settings)];
      await database.db('devices').where('id', gone).delete();
      await services.alarms.fire({ monitor: 'asset.connectivity', deviceId: first, assetIdentifier: 'BAT-1' });
      await services.alarms.fire({ monitor: 'asset.connectivity', deviceId: second, assetIdentifier: 'MTR-1' });
      await services.alarms.settled();

      const { evaluator, evaluated } = countingEvaluator();
      const reads = await readsDuring(async () => {
        evaluator.evaluate([good(first, 0), good(first, 1), good(second, 0), good(second, 1), good(gone, 0)]);
        await evaluator.idle();
      });
      expect(reads).toEqual({ devices: 1, openAlarms: 1 });
      // Each good report clears only the alarm its own device has open: with the alarms swapped, both would stay firing.
      expect(await firing(first)).toEqual([]);
      expect(await firing(second)).toEqual([]);
      expect((await alarmsOf(first)).map((alarm) => [alarm.asset_identifier, alarm.recovering_since !== null])).toEqual([['BAT-1', true]]);
      expect((await alarmsOf(second)).map((alarm) => [alarm.asset_identifier, alarm.recovering_since !== null])).toEqual([['MTR-1', true]]);
      expect(evaluated.count).toBe(4);
      expect(evaluator.stats.cleared).toBe(2);

      // The gone device was dropped, not kept waiting: its next report reads it again.
      const again = await readsDuring(async () => {
        evaluator.evaluate([good(gone, 0)]);
        await evaluator.idle();
      });
      expect(again).toEqual({ devices: 1, openAlarms: 0 });
      expect(evaluated.count).toBe(4);
      await evaluator.close();
    });

    it('leaves the devices of a failed read to be read again at a later report, their reports kept and evaluated then', async () => {
      const settings = { monitor_settings: JSON.stringify({ acceptableBadConnectionCount: 1 }) };
      const [first, second] = [await aDevice(settings), await aDevice(settings)];
      const openAlarmsOfMany = jest.spyOn(services.alarms, 'openAlarmsOfMany').mockRejectedValueOnce(new Error('the pool ran dry'));
      const logs = captureLogs();
      const { evaluator, evaluated } = countingEvaluator(logs.log);

      evaluator.evaluate([bad(first, 0), bad(first, 0), bad(second, 0), bad(second, 0)]);
      await evaluator.idle();
      expect(openAlarmsOfMany).toHaveBeenCalledTimes(1);
      expect(openAlarmsOfMany).toHaveBeenCalledWith([first, second]);
      // One line for the failed read, not one per device.
      expect(logs.lines.filter((line) => line.level === 50)).toEqual([
        expect.objectContaining({
          msg: "monitors: reading 2 devices' open alarms failed; each is read again at its next report",
          devices: 2,
          firstDevices: [first, second],
        }),
      ]);
      expect([await firing(first), await firing(second), evaluated.count]).toEqual([[], [], 0]);

      // Within a minute of the failure the devices are not read again; their reports wait.
      evaluator.evaluate([bad(first, 0), bad(second, 0)]);
      await evaluator.idle();
      expect(openAlarmsOfMany).toHaveBeenCalledTimes(1);
      expect(evaluated.count).toBe(0);

      // A minute later the next report reads them again (together) and every report kept is evaluated.
      const later = Date.now() + 61_000;
      jest.spyOn(Date, 'now').mockImplementation(() => later);
      evaluator.evaluate([bad(first, 0), bad(second, 0)]);
      await evaluator.idle();
      expect(openAlarmsOfMany).toHaveBeenCalledTimes(2);
      expect(evaluated.count).toBe(8);
      expect([await firing(first), await firing(second)]).toEqual([['BAT-1'], ['BAT-1']]);
      await evaluator.close();
    });
  });
});
