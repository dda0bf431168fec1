import type { Knex } from 'knex';
import * as organizations from './20261121000000_organizations';
import * as auditLog from './20261121000100_audit_log';
import * as users from './20261121000200_users';
import * as sessions from './20261121000300_sessions';

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
