import type { Knex } from 'knex';

/**
 * Monitors (issue 16): the lease of the periodic monitor sweep (disconnect duration, recovery
 * timers, customer messages left unsent), so that of several nodes one sweeps at a time, and
 * another takes over when the holder's lease runs out; and an index for counting recent
 * disconnects across the fleet.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('monitor_leases', (table) => {
    /** What is leased: "sweep". */
    table.string('name', 64).primary();
    /** The holder: a random id per process start. */
    table.string('holder', 64).notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.schema.alterTable('device_connection_events', (table) => {
    table.index(['at'], 'device_connection_events_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('device_connection_events', (table) => {
    table.dropIndex(['at'], 'device_connection_events_at_index');
  });
  await knex.schema.dropTableIfExists('monitor_leases');
}
