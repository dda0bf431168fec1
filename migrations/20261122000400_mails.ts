import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mails', (table) => {
    table.bigIncrements('id').primary();
    table.jsonb('to').notNullable();
    table.text('subject').notNullable();
    table.text('text').notNullable();
    table.text('html').nullable();
    table.text('status').notNullable();
    table.text('error').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('sent_at', { useTz: true }).nullable();
    table.check("status in ('kept', 'sending', 'sent', 'failed')", [], 'mails_status_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('mails');
}
