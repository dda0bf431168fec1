import type { Knex } from 'knex';

/**
 * Operations (issue 16; console.md sections 3 and 7, device-model.md 3.11, spec README
 * "Operations"): issues with their messages, subscribers and alarms, uploaded files, the
 * on-call ops user, phone calls, and the connection events the device monitors count.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('issues', (table) => {
    table.bigIncrements('id').primary();
    /** Whose issue it is: the device's organisation, the caller's, or null (a stranger's mail, a phone call). */
    table.bigInteger('organization_id').nullable().references('id').inTable('organizations').onDelete('SET NULL');
    table.bigInteger('device_id').nullable().references('id').inTable('devices').onDelete('SET NULL');
    table.string('title', 256).notNullable();
    /** How it began: monitoring, user, incoming-email, telephony, cloud. */
    table.string('source', 32).notNullable();
    table.boolean('internal').notNullable().defaultTo(false);
    table.boolean('auto_close').notNullable().defaultTo(false);
    table.boolean('can_reopen').notNullable().defaultTo(false);
    table.boolean('gridport_issue_owner').notNullable().defaultTo(false);
    table.bigInteger('assigned_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.string('assigned_email', 255).nullable();
    /** People outside every user list who take part (a mail's sender): `[{ email, name }]`. */
    table.jsonb('non_user_participants').notNullable().defaultTo('[]');
    /** The threading headers of the mail: `{ messageId, references }` of its first mail. */
    table.jsonb('reply_headers').notNullable().defaultTo('{}');
    table.timestamp('next_activity_due_at', { useTz: true }).nullable();
    table.timestamp('closed_at', { useTz: true }).nullable();
    /** True when it resolved itself (autoClose): only such an issue reopens on a new alarm. */
    table.boolean('closed_automatically').notNullable().defaultTo(false);
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['organization_id', 'closed_at', 'id'], 'issues_organization_index');
    table.index(['device_id', 'closed_at'], 'issues_device_index');
    table.index(['next_activity_due_at'], 'issues_next_activity_index');
  });

  await knex.schema.createTable('issue_subscribers', (table) => {
    table.bigInteger('issue_id').notNullable().references('id').inTable('issues').onDelete('CASCADE');
    table.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.primary(['issue_id', 'user_id']);
    table.index(['user_id'], 'issue_subscribers_user_index');
  });

  await knex.schema.createTable('issue_messages', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('issue_id').notNullable().references('id').inTable('issues').onDelete('CASCADE');
    /** monitoring, cloud, user, incoming-email, github (console.md section 3). */
    table.string('source', 32).notNullable();
    table.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.text('message').notNullable();
    table.boolean('is_internal').notNullable().defaultTo(false);
    table.jsonb('to').notNullable().defaultTo('[]');
    table.jsonb('cc').notNullable().defaultTo('[]');
    /** An incoming mail's headers: `{ from, to, cc, subject, messageId, inReplyTo, references, date }`. */
    table.jsonb('email_headers').nullable();
    /** The Message-ID this message went out (or came in) with, so a reply finds its issue. */
    table.string('mail_message_id', 998).nullable();
    /** Mail to `to` and `cc`: none, pending (the sender picks it up), sent, failed. */
    table.string('mail_state', 16).notNullable().defaultTo('none');
    /** When subscribers were told of the message by mail; null until then. */
    table.timestamp('subscribers_notified_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['issue_id', 'id'], 'issue_messages_issue_index');
    table.index(['mail_message_id'], 'issue_messages_mail_message_id_index');
    table.check("mail_state in ('none', 'pending', 'sent', 'failed')", [], 'issue_messages_mail_state_check');
  });
  await knex.raw("create index issue_messages_mail_pending_index on issue_messages (id) where mail_state = 'pending'");
  await knex.raw('create index issue_messages_unnotified_index on issue_messages (id) where subscribers_notified_at is null');

  await knex.schema.createTable('alarms', (table) => {
    table.bigIncrements('id').primary();
    /** The monitor kind (device-model.md 3.11), e.g. device.disconnect.duration. */
    table.string('monitor', 100).notNullable();
    table.bigInteger('device_id').nullable().references('id').inTable('devices').onDelete('CASCADE');
    /** A message destination's alarm (forwarding); no foreign key until that table exists. */
    table.bigInteger('destination_id').nullable();
    table.string('asset_identifier', 255).nullable();
    table.bigInteger('issue_id').nullable().references('id').inTable('issues').onDelete('SET NULL');
    /** `{ to: string[], markdown: string }`: what the device's outage contacts are told. */
    table.jsonb('customer_message').nullable();
    table.timestamp('customer_message_sent_at', { useTz: true }).nullable();
    /** What made it fire (the values the monitor saw), for the timeline. */
    table.jsonb('details').notNullable().defaultTo('{}');
    table.timestamp('recovering_since', { useTz: true }).nullable();
    table.timestamp('closed_at', { useTz: true }).nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['issue_id'], 'alarms_issue_index');
    table.index(['device_id', 'closed_at'], 'alarms_device_index');
  });
  // One open alarm per (monitor, device, asset or destination): two nodes firing at once make one.
  await knex.raw(
    "create unique index alarms_one_open_index on alarms (monitor, coalesce(device_id, 0), coalesce(destination_id, 0), coalesce(asset_identifier, '')) where closed_at is null",
  );

  await knex.schema.createTable('files', (table) => {
    table.bigIncrements('id').primary();
    /** The opaque name in `/console/v1/file/{fileIdentifier}`. */
    table.uuid('identifier').notNullable().unique();
    table.string('name', 255).notNullable();
    table.string('content_type', 255).notNullable();
    table.bigInteger('size').notNullable();
    /** database (content here), folder (the data folder) or s3. */
    table.string('storage', 16).notNullable();
    table.binary('content').nullable();
    table.string('storage_key', 1024).nullable();
    table.bigInteger('uploaded_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.bigInteger('organization_id').nullable().references('id').inTable('organizations').onDelete('SET NULL');
    /** The message it is attached to; null while it is a temporary upload. */
    table.bigInteger('issue_message_id').nullable().references('id').inTable('issue_messages').onDelete('CASCADE');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['issue_message_id'], 'files_issue_message_index');
  });

  await knex.schema.createTable('on_call', (table) => {
    /** One row per rota; "ops" is the engineer who answers the phone. */
    table.string('rota', 32).primary();
    table.bigInteger('user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.bigInteger('updated_by_user_id').nullable().references('id').inTable('users').onDelete('SET NULL');
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('phone_calls', (table) => {
    table.bigIncrements('id').primary();
    table.string('call_sid', 64).notNullable().unique();
    table.bigInteger('issue_id').notNullable().references('id').inTable('issues').onDelete('CASCADE');
    table.string('from', 64).nullable();
    table.string('to', 64).nullable();
    table.string('status', 32).notNullable();
    /** Whom the call was put through to: `[{ name, phone }]`, in the order tried. */
    table.jsonb('dialed').notNullable().defaultTo('[]');
    table.text('recording_url').nullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('device_connection_events', (table) => {
    table.bigIncrements('id').primary();
    table.bigInteger('device_id').notNullable().references('id').inTable('devices').onDelete('CASCADE');
    /** connected, disconnected. */
    table.string('kind', 16).notNullable();
    table.string('network_interface', 32).nullable();
    table.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.index(['device_id', 'at'], 'device_connection_events_device_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['device_connection_events', 'phone_calls', 'on_call', 'files', 'alarms', 'issue_messages', 'issue_subscribers', 'issues']) {
    await knex.schema.dropTableIfExists(table);
  }
}
