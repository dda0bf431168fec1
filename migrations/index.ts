import type { Knex } from 'knex';
import * as organizations from './20261121000000_organizations';
import * as auditLog from './20261121000100_audit_log';
import * as users from './20261121000200_users';
import * as sessions from './20261121000300_sessions';
import * as apiKeys from './20261122000100_api_keys';
import * as contacts from './20261122000110_contacts';
import * as dangerousActions from './20261122000120_dangerous_actions';
import * as userCredentials from './20261122000300_user_credentials';
import * as mails from './20261122000400_mails';
import * as passwordResets from './20261122000500_password_resets';
import * as userInvites from './20261122000600_user_invites';
import * as samlRequests from './20261122000700_saml_requests';
import * as fleet from './20261122001000_fleet';
import * as certificateAuthority from './20261122002000_certificate_authority';
import * as deviceReports from './20261122003000_device_reports';
import * as reportRollups from './20261122004000_report_rollups';
import * as deviceConnection from './20261122005000_device_connection';
import * as hubNodes from './20261124100000_hub_nodes';
import * as passwordResetRequests from './20261124110000_password_reset_requests';
import * as operations from './20261125000000_operations';
import * as mailThreading from './20261125004000_mail_threading';
import * as monitorLeases from './20261125005000_monitor_leases';
import * as forwarding from './20261126000000_forwarding';
import * as billing from './20261127000000_billing';
import * as billingIndexes from './20261127100000_billing_indexes';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration in order. A migration never changes after it lands; a change is a new one. */
export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['20261121000000_organizations', organizations],
  ['20261121000100_audit_log', auditLog],
  ['20261121000200_users', users],
  ['20261121000300_sessions', sessions],
  ['20261122000100_api_keys', apiKeys],
  ['20261122000110_contacts', contacts],
  ['20261122000120_dangerous_actions', dangerousActions],
  ['20261122000300_user_credentials', userCredentials],
  ['20261122000400_mails', mails],
  ['20261122000500_password_resets', passwordResets],
  ['20261122000600_user_invites', userInvites],
  ['20261122000700_saml_requests', samlRequests],
  ['20261122001000_fleet', fleet],
  ['20261122002000_certificate_authority', certificateAuthority],
  ['20261122003000_device_reports', deviceReports],
  ['20261122004000_report_rollups', reportRollups],
  ['20261122005000_device_connection', deviceConnection],
  ['20261124100000_hub_nodes', hubNodes],
  ['20261124110000_password_reset_requests', passwordResetRequests],
  ['20261125000000_operations', operations],
  ['20261125004000_mail_threading', mailThreading],
  ['20261125005000_monitor_leases', monitorLeases],
  ['20261126000000_forwarding', forwarding],
  ['20261127000000_billing', billing],
  ['20261127100000_billing_indexes', billingIndexes],
];

/** Knex reads migrations from this list rather than the file system, so compiled and test runs agree. */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => migrations.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = migrations.find(([candidate]) => candidate === name);
    if (!found) {
      throw new Error(`migration ${name} is not listed in migrations/index.ts`);
    }
    return found[1];
  },
};
