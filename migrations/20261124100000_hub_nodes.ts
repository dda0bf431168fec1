import type { Knex } from 'knex';

/**
 * Presence that a crash cannot leave behind (issue 14): every running node holds a lease it
 * renews with a heartbeat, and every device session names the node that holds it. A session
 * whose node's lease ran out is closed by whichever node sweeps first (device-hub/presence.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hub_nodes', (table) => {
    /** Random per process start: a restarted node is a new node. */
    table.string('id', 64).primary();
    /** Host and port the node serves on: a node starting where a previous one served closes that one's sessions at once. */
    table.string('name', 300).nullable();
    table.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('heartbeat_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('lease_expires_at', { useTz: true }).notNullable();
    table.index(['lease_expires_at'], 'hub_nodes_lease_index');
    table.index(['name'], 'hub_nodes_name_index');
  });
  await knex.schema.alterTable('devices', (table) => {
    table.string('hub_node_id', 64).nullable();
    table.index(['hub_node_id'], 'devices_hub_node_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devices', (table) => {
    table.dropIndex(['hub_node_id'], 'devices_hub_node_index');
    table.dropColumn('hub_node_id');
  });
  await knex.schema.dropTable('hub_nodes');
}
