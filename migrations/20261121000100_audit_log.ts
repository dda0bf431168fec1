import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_log', (table) => {
    table.bigIncrements('id').primary();
    table.uuid('transaction_identifier').notNullable();
    table.text('object_type').notNullable();
    table.bigInteger('object_id').notNullable();
    table.bigInteger('organization_id').nullable().references('id').inTable('organizations').onDelete('SET NULL');
    table.text('change_type').notNullable();
    table.jsonb('diff').notNullable();
    table.bigInteger('user_id').nullable();
    table.text('actor_kind').notNullable();
    table.string('actor_name', 255).notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['object_type', 'object_id', 'id'], 'audit_log_object_index');
    table.index(['transaction_identifier'], 'audit_log_transaction_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_log');
}
