import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.jsonb('two_factor_secret').nullable();
    table.bigInteger('two_factor_last_step').nullable();
    table.jsonb('recovery_code_hashes').notNullable().defaultTo('[]');
    table.jsonb('pending_two_factor_secret').nullable();
    table.timestamp('pending_two_factor_expires_at', { useTz: true }).nullable();
  });
  await knex.schema.createTable('login_attempts', (table) => {
    table.bigIncrements('id').primary();
    table.string('email', 255).notNullable();
    table.string('address', 64).notNullable();
    table.boolean('succeeded').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['email', 'created_at'], 'login_attempts_email_index');
    table.index(['address', 'created_at'], 'login_attempts_address_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_attempts');
  await knex.schema.alterTable('users', (table) => {
    table.dropColumn('two_factor_secret');
    table.dropColumn('two_factor_last_step');
    table.dropColumn('recovery_code_hashes');
    table.dropColumn('pending_two_factor_secret');
    table.dropColumn('pending_two_factor_expires_at');
  });
}
