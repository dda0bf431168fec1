import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    // The user who created the key; null for keys made on the command line.
    table.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.string('name', 100).notNullable();
    // SHA-256 of the secret, hex: the secret itself is never stored.
    table.string('secret_hash', 64).notNullable();
    table.jsonb('ip_ranges').notNullable().defaultTo('[]');
    table.jsonb('rights').notNullable().defaultTo('[]');
    table.text('public_key').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['organization_id'], 'api_keys_organization_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
}
