import type { Knex } from 'knex';

/**
 * What gateways report (device-model.md 3.9), one row per report, partitioned by month of the
 * report's time so that old months can be rolled up and dropped whole. The primary key makes
 * a report sent again (same device, time and id) a no-op. A default partition catches any time
 * no monthly partition covers yet, so nothing is ever refused for want of a partition.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table device_reports (
      device_id bigint not null,
      report_id text not null,
      type text not null,
      at timestamptz not null,
      asset_index integer,
      controller_index integer,
      body jsonb not null,
      received_at timestamptz not null default now(),
      primary key (device_id, at, report_id)
    ) partition by range (at)
  `);
  await knex.raw('create table device_reports_default partition of device_reports default');
  await knex.raw('create index device_reports_type_index on device_reports (device_id, type, at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table device_reports cascade');
}
