import type { Knex } from 'knex';

/**
 * Mail in and out of issues (docs/operations.md, "Mail in and out"): the threading headers of each
 * mail sent (cc, Message-ID, In-Reply-To, References), and the lease a node takes on an issue
 * message while it mails about it, so that several nodes mail each message once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('mails', (table) => {
    table.jsonb('cc').notNullable().defaultTo('[]');
    table.string('message_id', 998).nullable();
    table.string('in_reply_to', 998).nullable();
    table.jsonb('references').notNullable().defaultTo('[]');
  });
  await knex.schema.alterTable('issue_messages', (table) => {
    /** Until when a node mails about this message (to and cc, or its subscribers); others leave it alone meanwhile. */
    table.timestamp('mail_claimed_until', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('issue_messages', (table) => {
    table.dropColumn('mail_claimed_until');
  });
  await knex.schema.alterTable('mails', (table) => {
    table.dropColumn('references');
    table.dropColumn('in_reply_to');
    table.dropColumn('message_id');
    table.dropColumn('cc');
  });
}
