import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The ledger of dangerous actions: what each user spent of their rolling 24-hour allowance.
  await knex.schema.createTable('dangerous_actions', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('watts').notNullable();
    table.text('action').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['user_id', 'created_at'], 'dangerous_actions_user_time_index');
    table.check('watts >= 0', [], 'dangerous_actions_watts_check');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dangerous_actions');
}
