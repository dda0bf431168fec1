import type { Knex } from 'knex';

/**
 * The platform CA that signs device certificates, one row shared by every node (its private
 * key sealed with the ENCRYPTION_KEY), and the certificate each device was last issued.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('certificate_authorities', (table) => {
    /** Always 1: a second node starting at the same time finds the row instead of adding one. */
    table.integer('id').primary();
    table.text('certificate').notNullable();
    /** The PKCS#8 PEM of the private key, sealed by SecretBox: { iv, encryptedData, tag }. */
    table.jsonb('private_key').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('alter table certificate_authorities add constraint certificate_authorities_single_row check (id = 1)');

  await knex.schema.alterTable('devices', (table) => {
    /** SHA-256 of the DER of the device's current certificate, hex: an older certificate no longer authenticates. */
    table.string('certificate_fingerprint', 64).nullable();
    table.string('certificate_serial', 64).nullable();
    table.timestamp('certificate_not_after', { useTz: true }).nullable();
    table.index(['certificate_fingerprint'], 'devices_certificate_fingerprint_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devices', (table) => {
    table.dropIndex(['certificate_fingerprint'], 'devices_certificate_fingerprint_index');
    table.dropColumn('certificate_not_after');
    table.dropColumn('certificate_serial');
    table.dropColumn('certificate_fingerprint');
  });
  await knex.schema.dropTable('certificate_authorities');
}
