import type { Knex } from 'knex';

/** The ids of SAML AuthnRequests sent, so any node can check a response's InResponseTo (once). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('saml_requests', (table) => {
    table.string('id', 255).primary();
    table.text('value').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['created_at'], 'saml_requests_created_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('saml_requests');
}
