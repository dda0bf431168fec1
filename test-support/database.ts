import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase, migrateLatest, type Database } from '../server/database';

declare global {
  var __gridportPgliteConnection: (() => PGlite) | undefined;
}

export interface TestDatabase {
  db: Database;
  kind: 'postgres' | 'pglite';
  schema: string;
  /** Drops the schema and closes this test file's connections. */
  close(): Promise<void>;
}

/** The PGlite connection of this jest worker (see environment.js beside this file). */
function workerPglite(): PGlite {
  const connection = globalThis.__gridportPgliteConnection;
  if (!connection) {
    throw new Error('test-support/environment.js is not the jest environment of this test');
  }
  return connection();
}

/**
 * A migrated database for one test file: PostgreSQL when DATABASE_URL is set, otherwise the
 * worker's shared PGlite; either way in a schema of its own, dropped by close().
 */
export async function testDatabase(): Promise<TestDatabase> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const url = process.env.DATABASE_URL || null;
  const opened = url ? openDatabase({ url, schema, poolMax: 4 }) : openDatabase({ url: null, pglite: workerPglite(), schema });
  await migrateLatest(opened.db, schema);
  return {
    db: opened.db,
    kind: opened.kind,
    schema,
    close: async () => {
      await opened.db.raw('drop schema if exists ?? cascade', [schema]);
      await opened.db.destroy();
    },
  };
}
