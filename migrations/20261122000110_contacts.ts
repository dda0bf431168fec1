import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contacts', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').nullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.jsonb('roles').notNullable().defaultTo('[]');
    table.string('name', 255).notNullable();
    table.string('email', 255).notNullable();
    table.string('phone', 16).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // One contact per email regardless of case (contact_email_already_exists).
  await knex.raw('create unique index contacts_email_unique on ?? (lower(email))', ['contacts']);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('contacts');
}
