import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_invites', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.string('email', 255).notNullable();
    table.jsonb('rights').notNullable();
    table.bigInteger('invited_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.text('code_hash').notNullable();
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.timestamp('revoked_at', { useTz: true }).nullable();
    table.timestamp('converted_at', { useTz: true }).nullable();
    table.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.jsonb('pending_two_factor_secret').nullable();
    table.timestamp('pending_two_factor_expires_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['organization_id'], 'user_invites_organization_index');
  });
  await knex.raw('create index user_invites_email_index on ?? (lower(email))', ['user_invites']);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_invites');
}
