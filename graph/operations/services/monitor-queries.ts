import type { Knex } from 'knex';

/**
 * The history the frequency monitors count (docs/operations.md, "Monitors and alarms"), read
 * from what is stored, so a restart of the cloud loses no count. Config reports are rare, so
 * these run per config report and per open alarm in the sweep, never per report.
 */

/** Agent starts within the window: config reports the agent sent unasked with source local or default (edge/agent/agent.ts start). */
export async function countRestarts(db: Knex, deviceId: number, windowSeconds: number): Promise<number> {
  const row = (await db('device_reports')
    .where({ device_id: deviceId, type: 'config' })
    .whereRaw('received_at > now() - make_interval(secs => ?)', [windowSeconds])
    .whereRaw("body->'observations'->>'source' in ('local', 'default')")
    .whereRaw("body->'observations'->'messageId' is null")
    .count({ count: '*' })
    .first()) as { count: string | number } | undefined;
  return Number(row?.count ?? 0);
}

/**
 * On-site config writes within the window: config reports with source local whose config
 * differs from the one reported before it (an agent start with its stored, unchanged config is
 * not a write).
 */
export async function countLocalConfigWrites(db: Knex, deviceId: number, windowSeconds: number): Promise<number> {
  const result = (await db.raw(
    `select count(*) as count from (
       select received_at, body->'observations'->>'source' as source,
              body->'observations'->'config' is distinct from lag(body->'observations'->'config') over (order by at, received_at) as changed,
              row_number() over (order by at, received_at) as position
         from device_reports
        where device_id = ? and type = 'config'
          and at >= coalesce((select max(at) from device_reports where device_id = ? and type = 'config' and received_at <= now() - make_interval(secs => ?)), '-infinity')
     ) x
     where received_at > now() - make_interval(secs => ?) and source = 'local' and changed and position > 1`,
    [deviceId, deviceId, windowSeconds, windowSeconds],
  )) as { rows: { count: string | number }[] };
  return Number(result.rows[0]?.count ?? 0);
}

/** Network interfaces that are a cellular modem (ModemManager, ppp, USB modems); every other interface counts as ethernet. */
export const cellularInterface = /^(wwan|ppp|wwp|cdc-wdm|usb|rmnet|cellular|lte|modem)/i;

export function interfaceClass(networkInterface: string | null): 'ethernet' | 'cellular' {
  return networkInterface !== null && cellularInterface.test(networkInterface) ? 'cellular' : 'ethernet';
}
