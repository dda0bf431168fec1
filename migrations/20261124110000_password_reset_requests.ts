import type { Knex } from 'knex';

/**
 * Password reset requests per email, whether or not the email has an account (issue 14, item 7):
 * the hourly allowance then answers alike for both, so a 429 tells nothing. Only a SHA-256 of the
 * lowercased email is kept, and only for the hour the allowance looks back.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('password_reset_requests', (table) => {
    table.bigIncrements('id').primary();
    table.string('email_hash', 64).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['email_hash', 'created_at'], 'password_reset_requests_email_index');
    table.index(['created_at'], 'password_reset_requests_created_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('password_reset_requests');
}
