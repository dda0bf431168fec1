import type { Knex } from 'knex';

/**
 * Billing indexes (docs/performance.md, "Invoicing"): the refunds of a charge by the charge they
 * refund (billing_charges.refund_of_id, a foreign key without an index: each read of a charge's
 * refunds, and each delete of a charge, scanned the table).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index billing_charges_refund_of_index on billing_charges (refund_of_id) where refund_of_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index billing_charges_refund_of_index');
}
