import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organizations', (table) => {
    table.bigIncrements('id').primary();
    table.string('name', 100).notNullable();
    table.text('type').nullable();
    table.jsonb('pricing').nullable();
    table.string('invoice_customer_reference', 255).nullable();
    table.text('invoice_frequency').notNullable().defaultTo('monthly');
    table.boolean('require_legal_entity_per_device').notNullable().defaultTo(false);
    table.boolean('require_customer_reference_per_device').notNullable().defaultTo(false);
    table.jsonb('subscription_defaults').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.check("type is null or type in ('energy-trader', 'data-receiver', 'asset-owner', 'installer')", [], 'organizations_type_check');
    table.check("invoice_frequency in ('daily', 'monthly')", [], 'organizations_invoice_frequency_check');
  });
  // The provider's own organisation is the first row, so it has id 1.
  await knex('organizations').insert({ name: 'Gridport', type: null });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('organizations');
}
