import type { Knex } from 'knex';

/**
 * Forwarding (issue 18; console.md sections 3 and 7, device-model.md 3.12, spec README
 * "Forwarding"): message destinations, the forwarding of device groups to them, and where each
 * destination's delivery stands.
 *
 * The stream a destination reads is device_reports in commit order. Every stored report gets
 * the id of the transaction that wrote it (`tx`) and a number from a sequence (`seq`); a reader
 * takes reports in (tx, seq) order, and only those of transactions older than every transaction
 * still running (pg_snapshot_xmin), so no report can later appear before a position already
 * read: a durable cursor per destination never skips a report that commits late.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create sequence device_reports_seq');
  await knex.raw(`alter table device_reports add column seq bigint not null default nextval('device_reports_seq')`);
  await knex.raw('alter table device_reports add column tx xid8 not null default pg_current_xact_id()');
  await knex.raw('create index device_reports_stream_index on device_reports (tx, seq)');
  /** Replay from a position (resume with an offset) finds the report by its number. */
  await knex.raw('create index device_reports_seq_index on device_reports (seq)');

  await knex.schema.createTable('message_destinations', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.string('name', 255).notNullable();
    /** One of the twelve kinds (contracts/forwarding.ts); never changes (changing_type). */
    table.string('type', 64).notNullable();
    /** The kind's settings, each secret as { iv, encryptedData, tag }. */
    table.jsonb('settings').notNullable();
    table.jsonb('outage_emails').notNullable().defaultTo('[]');
    table.jsonb('outage_user_ids').notNullable().defaultTo('[]');
    table.jsonb('monitor_settings').notNullable().defaultTo('{}');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['organization_id', 'id'], 'message_destinations_organization_index');
  });

  await knex.schema.createTable('device_group_message_destinations', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('device_group_id').notNullable().references('id').inTable('device_groups').onDelete('CASCADE');
    table.bigInteger('message_destination_id').notNullable().references('id').inTable('message_destinations').onDelete('CASCADE');
    /** Message types forwarded (contracts/forwarding.ts messageTypes), at least one. */
    table.specificType('message_types', 'text[]').notNullable();
    table.jsonb('settings').notNullable().defaultTo('{}');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['device_group_id', 'message_destination_id'], { indexName: 'device_group_message_destinations_unique' });
    table.index(['message_destination_id'], 'device_group_message_destinations_destination_index');
  });

  /** One row per destination: the durable cursor, the lease of the node delivering, and health. */
  await knex.schema.createTable('message_destination_deliveries', (table) => {
    table.bigInteger('message_destination_id').primary().references('id').inTable('message_destinations').onDelete('CASCADE');
    /** The last report delivered: (tx, seq) in stream order. */
    table.specificType('cursor_tx', 'xid8').notNullable();
    table.bigInteger('cursor_seq').notNullable();
    /** active or paused. */
    table.string('state', 16).notNullable().defaultTo('active');
    table.string('paused_reason', 32).nullable();
    table.timestamp('paused_at', { useTz: true }).nullable();
    /** The node delivering and until when its lease holds (FOR UPDATE SKIP LOCKED takes an expired one). */
    table.string('lease_owner', 128).nullable();
    table.timestamp('lease_until', { useTz: true }).nullable();
    table.bigInteger('delivered_count').notNullable().defaultTo(0);
    table.timestamp('last_success_at', { useTz: true }).nullable();
    table.timestamp('last_error_at', { useTz: true }).nullable();
    table.text('last_error').nullable();
    table.timestamp('failing_since', { useTz: true }).nullable();
    table.integer('failure_count').notNullable().defaultTo(0);
    table.timestamp('next_attempt_at', { useTz: true }).nullable();
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check("state in ('active', 'paused')", [], 'message_destination_deliveries_state_check');
  });

  await knex.raw(
    'alter table alarms add constraint alarms_destination_foreign foreign key (destination_id) references message_destinations (id) on delete cascade',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table alarms drop constraint alarms_destination_foreign');
  await knex.schema.dropTable('message_destination_deliveries');
  await knex.schema.dropTable('device_group_message_destinations');
  await knex.schema.dropTable('message_destinations');
  await knex.raw('drop index device_reports_seq_index');
  await knex.raw('drop index device_reports_stream_index');
  await knex.raw('alter table device_reports drop column tx');
  await knex.raw('alter table device_reports drop column seq');
  await knex.raw('drop sequence device_reports_seq');
}
