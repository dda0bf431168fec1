import type { Knex } from 'knex';

/** Which gateway connection (on whichever node) currently holds a device, so only that one may mark it offline. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devices', (table) => {
    table.string('hub_connection_id', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devices', (table) => {
    table.dropColumn('hub_connection_id');
  });
}
