import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').notNullable().references('id').inTable('organizations').onDelete('RESTRICT');
    table.string('name', 255).notNullable();
    table.string('email', 255).notNullable();
    table.jsonb('rights').notNullable().defaultTo('[]');
    table.text('password_hash').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['organization_id'], 'users_organization_index');
  });
  // Emails are kept as given but unique regardless of case.
  await knex.raw('create unique index users_email_unique on ?? (lower(email))', ['users']);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
