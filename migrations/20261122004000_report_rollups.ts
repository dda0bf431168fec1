import type { Knex } from 'knex';

/**
 * Roll-ups of device_reports (device-hub/rollups.ts): per minute and per hour, for each device,
 * report type, asset or controller index and numeric observation field, the count, sum, min,
 * max and last value. A background job fills them from the raw reports; the history query
 * (graph/fleet/services/measurement.service.ts) reads whichever the chart's resolution needs.
 *
 * - `report_numbers(observations)` lists the numeric leaves of a report's observations, nested
 *   groups joined with dots (`phaseVoltage.l1`, `setpoints.desired.cloud`), three levels deep.
 * - A BRIN index on device_reports.received_at lets the job find what arrived since its last
 *   run, late reports included, for almost no cost on the ingest path.
 * - report_rollup_progress (one row) remembers up to where reports were rolled up, and from
 *   where raw reports are still kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function report_numbers(observations jsonb) returns table (field text, value double precision)
    language sql immutable parallel safe as $$
      select one.key, one.value::double precision
        from jsonb_each(case when jsonb_typeof(observations) = 'object' then observations else '{}'::jsonb end) one
        where jsonb_typeof(one.value) = 'number'
      union all
      select one.key || '.' || two.key, two.value::double precision
        from jsonb_each(case when jsonb_typeof(observations) = 'object' then observations else '{}'::jsonb end) one,
          jsonb_each(case when jsonb_typeof(one.value) = 'object' then one.value else '{}'::jsonb end) two
        where jsonb_typeof(two.value) = 'number'
      union all
      select one.key || '.' || two.key || '.' || three.key, three.value::double precision
        from jsonb_each(case when jsonb_typeof(observations) = 'object' then observations else '{}'::jsonb end) one,
          jsonb_each(case when jsonb_typeof(one.value) = 'object' then one.value else '{}'::jsonb end) two,
          jsonb_each(case when jsonb_typeof(two.value) = 'object' then two.value else '{}'::jsonb end) three
        where jsonb_typeof(three.value) = 'number'
    $$
  `);
  // autosummarize: each block range is summarised as soon as it fills, not at the next vacuum.
  await knex.raw('create index device_reports_received_index on device_reports using brin (received_at) with (autosummarize = on)');
  for (const [table, column] of [
    ['report_minutes', 'minute'],
    ['report_hours', 'hour'],
  ] as const) {
    await knex.raw(`
      create table ${table} (
        device_id bigint not null,
        type text not null,
        asset_index integer,
        controller_index integer,
        field text not null,
        ${column} timestamptz not null,
        count integer not null,
        sum double precision not null,
        min double precision not null,
        max double precision not null,
        last double precision not null,
        last_at timestamptz not null,
        constraint ${table}_key unique nulls not distinct (device_id, type, field, asset_index, controller_index, ${column})
      )
    `);
  }
  // The job recomputes an hour from its minutes; retention deletes old minutes.
  await knex.raw('create index report_minutes_device_index on report_minutes (device_id, minute)');
  await knex.raw('create index report_minutes_minute_index on report_minutes using brin (minute)');
  await knex.raw(`
    create table report_rollup_progress (
      id integer primary key default 1 check (id = 1),
      rolled_up_to timestamptz,
      raw_kept_from timestamptz
    )
  `);
  await knex.raw('insert into report_rollup_progress (id) values (1)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table report_rollup_progress');
  await knex.raw('drop table report_hours');
  await knex.raw('drop table report_minutes');
  await knex.raw('drop index device_reports_received_index');
  await knex.raw('drop function report_numbers(jsonb)');
}
