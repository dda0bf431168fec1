import type { Knex } from 'knex';

/**
 * Billing (issue 19; console.md sections 3 to 9, device-model.md section 9, spec README
 * "Billing"; docs/billing.md): legal entities, charges, invoices with public ids in an unbroken
 * sequence per year, and on each device its billable units and what its current subscription
 * period has been charged for.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('billing_legal_entities', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    table.string('company_name', 255).notNullable();
    table.string('address1', 255).nullable();
    table.string('address2', 255).nullable();
    table.string('zipcode', 32).nullable();
    table.string('city', 255).nullable();
    /** ISO 3166-1 alpha-2, upper case. */
    table.string('country', 2).notNullable();
    table.jsonb('emails').notNullable().defaultTo('[]');
    table.string('chamber_of_commerce', 64).nullable();
    table.string('tax_number', 64).nullable();
    /** The Moneybird contact it was made from or is linked to. */
    table.string('accounting_contact_id', 20).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['organization_id', 'id'], 'billing_legal_entities_organization_index');
  });

  await knex.schema.alterTable('organizations', (table) => {
    /** The organisation's default legal entity (isOrganizationDefault); deleting it is refused (is_in_use). */
    table.bigInteger('default_billing_legal_entity_id').nullable().references('id').inTable('billing_legal_entities').onDelete('RESTRICT');
  });

  await knex.schema.alterTable('devices', (table) => {
    /** Invoices this device's charges to this legal entity instead of the organisation's default. */
    table.bigInteger('billing_legal_entity_id').nullable().references('id').inTable('billing_legal_entities').onDelete('SET NULL');
    /** The billable units of the device now, by rate key (docs/billing.md, "Units"), kept with every change that moves them. */
    table.jsonb('billing_units').notNullable().defaultTo('{}');
    table.integer('billing_unit_count').notNullable().defaultTo(0);
    /** The start of the subscription period charged up to subscription_charged_until. */
    table.timestamp('charged_period_from', { useTz: true }).nullable();
    /** The most units of each key charged for that period: a change charges only units above them. */
    table.jsonb('charged_units').notNullable().defaultTo('{}');
    table.index(['billing_legal_entity_id'], 'devices_billing_legal_entity_index');
  });

  await knex.schema.createTable('billing_invoices', (table) => {
    table.bigIncrements('id').primary();
    /** GP-<year>-<6 digits>, from billing_invoice_sequences in the invoice's transaction: no gaps. */
    table.string('public_id', 32).notNullable().unique();
    table.integer('year').notNullable();
    table.integer('sequence').notNullable();
    table.bigInteger('organization_id').notNullable().references('id').inTable('organizations').onDelete('RESTRICT');
    table.bigInteger('billing_legal_entity_id').nullable().references('id').inTable('billing_legal_entities').onDelete('RESTRICT');
    table.string('customer_reference', 255).nullable();
    /** Charges billable before this moment were gathered. */
    table.timestamp('period_end', { useTz: true }).notNullable();
    /** The total in euro cents and the totals per ledger account. */
    table.bigInteger('charge_cents').notNullable();
    table.jsonb('totals').notNullable();
    table.integer('charge_count').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.unique(['year', 'sequence'], { indexName: 'billing_invoices_sequence_unique' });
    table.index(['organization_id', 'id'], 'billing_invoices_organization_index');
  });

  await knex.schema.createTable('billing_invoice_sequences', (table) => {
    table.integer('year').primary();
    table.integer('last').notNullable();
  });

  await knex.schema.createTable('billing_charges', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('organization_id').notNullable().references('id').inTable('organizations').onDelete('RESTRICT');
    table.bigInteger('device_id').nullable().references('id').inTable('devices').onDelete('SET NULL');
    /** The device's name when charged, so a charge still reads after its device is gone. */
    table.string('device_name', 255).nullable();
    table.string('source', 16).notNullable();
    table.string('reason', 32).notNullable();
    table.string('description', 255).notNullable();
    /** Subscription charges: the device's monthly price in euro before the discount, the discount in percent, the units charged. */
    table.decimal('monthly_price_before_discount', 14, 4).nullable();
    table.decimal('discount', 7, 4).nullable();
    table.jsonb('units').nullable();
    table.timestamp('billable_at', { useTz: true }).notNullable();
    table.timestamp('period_from', { useTz: true }).nullable();
    table.timestamp('period_to', { useTz: true }).nullable();
    table.bigInteger('charge_cents').notNullable();
    /** The device's own customer reference and legal entity when charged; null takes the organisation's when invoiced. */
    table.string('customer_reference', 255).nullable();
    table.string('ledger_account', 16).notNullable();
    table.bigInteger('billing_legal_entity_id').nullable().references('id').inTable('billing_legal_entities').onDelete('RESTRICT');
    table.bigInteger('invoice_id').nullable().references('id').inTable('billing_invoices').onDelete('RESTRICT');
    /** A refund is a charge of the opposite sign that names the charge it refunds. */
    table.bigInteger('refund_of_id').nullable().references('id').inTable('billing_charges').onDelete('RESTRICT');
    table.bigInteger('refunded_cents').notNullable().defaultTo(0);
    table.bigInteger('created_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.timestamp('created_at', { useTz: true }).notNullable();
    table.check("source in ('subscription', 'manual', 'shipment')", [], 'billing_charges_source_check');
    table.check("ledger_account in ('hardware', 'saas', 'consultancy')", [], 'billing_charges_ledger_account_check');
    table.index(['organization_id', 'id'], 'billing_charges_organization_index');
    table.index(['device_id', 'id'], 'billing_charges_device_index');
    table.index(['invoice_id'], 'billing_charges_invoice_index');
  });
  /** Uninvoiced charges, which the invoicing job gathers. */
  await knex.raw('create index billing_charges_uninvoiced_index on billing_charges (organization_id, billable_at) where invoice_id is null');
  /** One scheduled charge per device and period, whichever node's job makes it. */
  await knex.raw("create unique index billing_charges_scheduled_unique on billing_charges (device_id, period_from) where reason = 'scheduled'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('billing_charges');
  await knex.schema.dropTable('billing_invoice_sequences');
  await knex.schema.dropTable('billing_invoices');
  await knex.schema.alterTable('devices', (table) => {
    table.dropColumn('billing_legal_entity_id');
    table.dropColumn('billing_units');
    table.dropColumn('billing_unit_count');
    table.dropColumn('charged_period_from');
    table.dropColumn('charged_units');
  });
  await knex.schema.alterTable('organizations', (table) => {
    table.dropColumn('default_billing_legal_entity_id');
  });
  await knex.schema.dropTable('billing_legal_entities');
}
