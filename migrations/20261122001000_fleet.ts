import type { Knex } from 'knex';

/**
 * The fleet: device groups, devices (with the assets and controllers of their config kept as
 * rows for filtering and addressing), partnerships, schedules and parameters, and the outbox of
 * cloud-to-device messages.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('device_groups', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.string('name', 255).notNullable();
    table.jsonb('device_outage_emails').notNullable().defaultTo('[]');
    table.jsonb('device_outage_user_ids').notNullable().defaultTo('[]');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['organization_id'], 'device_groups_organization_index');
  });

  await knex.schema.createTable('device_group_api_keys', (table) => {
    table.bigInteger('device_group_id').notNullable().references('id').inTable('device_groups').onDelete('CASCADE');
    table.bigInteger('api_key_id').notNullable().references('id').inTable('api_keys').onDelete('CASCADE');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.primary(['device_group_id', 'api_key_id']);
    table.index(['api_key_id'], 'device_group_api_keys_api_key_index');
  });

  await knex.schema.createTable('devices', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').nullable().references('id').inTable('organizations').onDelete('SET NULL');
    table.bigInteger('device_group_id').nullable().references('id').inTable('device_groups').onDelete('RESTRICT');
    /** Set by provisioning (the certificate's OU); null until the device first connects. */
    table.string('identifier', 100).nullable().unique();
    table.string('name', 255).notNullable();
    table.string('balena_uuid', 64).nullable();
    table.string('balena_os_version', 64).nullable();
    table.string('version', 64).nullable();
    table.string('pinned_firmware', 64).nullable();
    table.string('iccid', 32).nullable();
    table.string('imsi', 32).nullable();
    table.jsonb('config').nullable();
    table.integer('config_revision').notNullable().defaultTo(0);
    table.double('nominal_active_power_sum').notNullable().defaultTo(0);
    table.integer('reporting_interval').nullable();
    table.jsonb('monitor_settings').notNullable().defaultTo('{}');
    table.jsonb('subscription').nullable();
    table.timestamp('subscription_charged_until', { useTz: true }).nullable();
    table.string('invoice_customer_reference', 255).nullable();
    table.boolean('monitor_connectivity').notNullable().defaultTo(true);
    table.boolean('export_messages').notNullable().defaultTo(false);
    table.string('cloud_api', 16).notNullable().defaultTo('READ');
    table.boolean('open_for_provisioning').notNullable().defaultTo(false);
    table.text('provisioning_token_hash').nullable();
    table.jsonb('outage_emails').notNullable().defaultTo('[]');
    table.jsonb('outage_user_ids').notNullable().defaultTo('[]');
    table.string('network_interface', 32).nullable();
    table.boolean('is_exposed_to_customer').notNullable().defaultTo(false);
    table.boolean('in_production').notNullable().defaultTo(false);
    table.timestamp('last_seen_at', { useTz: true }).nullable();
    table.boolean('online').notNullable().defaultTo(false);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['organization_id', 'id'], 'devices_organization_index');
    table.index(['device_group_id'], 'devices_device_group_index');
    table.index(['iccid'], 'devices_iccid_index');
    table.index(['imsi'], 'devices_imsi_index');
  });

  /** The assets and active-control loops of each device's config, one row each, rewritten with the config. */
  await knex.schema.createTable('device_components', (table) => {
    table.bigInteger('device_id').notNullable().references('id').inTable('devices').onDelete('CASCADE');
    /** 'asset' or 'controller'. */
    table.string('kind', 16).notNullable();
    table.integer('index').notNullable();
    table.string('category', 32).nullable();
    table.string('type', 64).notNullable();
    table.string('identifier', 255).nullable();
    table.double('nominal_active_power').nullable();
    table.primary(['device_id', 'kind', 'index']);
    table.index(['kind', 'identifier'], 'device_components_identifier_index');
    table.index(['kind', 'type'], 'device_components_type_index');
  });

  /** The schedule of one asset or controller; a schedule call replaces it. */
  await knex.schema.createTable('device_schedules', (table) => {
    table.bigInteger('device_id').notNullable().references('id').inTable('devices').onDelete('CASCADE');
    table.string('kind', 16).notNullable();
    table.string('identifier', 255).notNullable();
    table.jsonb('items').notNullable();
    table.bigInteger('updated_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.primary(['device_id', 'kind', 'identifier']);
  });

  await knex.schema.createTable('partnerships', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('owner_organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.bigInteger('partner_organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.string('role', 16).notNullable();
    table.string('description', 255).notNullable().defaultTo('');
    table.boolean('all_devices').notNullable().defaultTo(false);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.unique(['owner_organization_id', 'partner_organization_id']);
    table.index(['partner_organization_id'], 'partnerships_partner_index');
  });

  await knex.schema.createTable('partnership_devices', (table) => {
    table.bigInteger('partnership_id').notNullable().references('id').inTable('partnerships').onDelete('CASCADE');
    table.bigInteger('device_id').notNullable().references('id').inTable('devices').onDelete('CASCADE');
    table.primary(['partnership_id', 'device_id']);
    table.index(['device_id'], 'partnership_devices_device_index');
  });

  /** Cloud-to-device messages in order, kept until the device acknowledges each. */
  await knex.schema.createTable('device_outbox', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('device_id').notNullable().references('id').inTable('devices').onDelete('CASCADE');
    table.string('type', 64).notNullable();
    table.jsonb('payload').notNullable();
    table.bigInteger('created_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('delivered_at', { useTz: true }).nullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.timestamp('acknowledged_at', { useTz: true }).nullable();
  });
  await knex.raw('create index device_outbox_pending_index on device_outbox (device_id, id) where acknowledged_at is null');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'device_outbox',
    'partnership_devices',
    'partnerships',
    'device_schedules',
    'device_components',
    'devices',
    'device_group_api_keys',
    'device_groups',
  ]) {
    await knex.schema.dropTable(table);
  }
}
