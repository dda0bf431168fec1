import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { PGlite } from '@electric-sql/pglite';
import { migrationSource } from '../migrations';
import { pgliteParsers } from './database-parsers';

export type Database = Knex;

export interface DatabaseOptions {
  /** PostgreSQL connection string; null opens PGlite. */
  url: string | null;
  /** Where PGlite keeps its files; null keeps it in memory. */
  pgliteDir?: string | null;
  /** An already open PGlite to use instead of opening one (tests share one per worker). */
  pglite?: PGlite;
  /** The schema Gridport's tables live in (tests isolate themselves by schema). */
  schema?: string;
  poolMax?: number;
}

export interface OpenDatabase {
  db: Database;
  kind: 'postgres' | 'pglite';
  schema: string;
}

/** Opens PostgreSQL when a URL is given, otherwise PGlite (in a folder, or in memory). */
export function openDatabase(options: DatabaseOptions): OpenDatabase {
  const schema = options.schema ?? 'public';
  if (options.url) {
    const db = knex({
      client: 'pg',
      connection: options.url,
      searchPath: [schema],
      pool: { min: 0, max: options.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
    });
    return { db, kind: 'postgres', schema };
  }
  let pglite = options.pglite;
  if (!pglite) {
    const dir = options.pgliteDir ?? null;
    if (dir) {
      mkdirSync(path.dirname(dir), { recursive: true });
    }
    pglite = dir ? new PGlite(dir, { parsers: pgliteParsers }) : new PGlite({ parsers: pgliteParsers });
  }
  const db = knex({
    client: ClientPGLite as unknown as typeof knex.Client,
    connection: { pglite } as unknown as Knex.StaticConnectionConfig,
    searchPath: [schema],
  });
  return { db, kind: 'pglite', schema };
}

/** Whether the database answers a trivial query within `timeoutMs`. */
export async function databaseAnswers(db: Database, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.raw('select 1'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('database did not answer in time')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function migratorConfig(schema: string): Knex.MigratorConfig {
  return { migrationSource, schemaName: schema, tableName: 'knex_migrations' };
}

export async function migrateLatest(db: Database, schema = 'public'): Promise<string[]> {
  await db.raw('create schema if not exists ??', [schema]);
  const [, applied] = (await db.migrate.latest(migratorConfig(schema))) as [number, string[]];
  return applied;
}

/** The migrations this code lists (migrations/index.ts) that the database has not applied, by name. */
export async function pendingMigrations(db: Database, schema = 'public'): Promise<string[]> {
  const listed = await migrationSource.getMigrations([]);
  const rows = (await db.withSchema(schema).select('name').from('knex_migrations')) as { name: string }[];
  const applied = new Set(rows.map((row) => row.name));
  return listed.filter((name) => !applied.has(name));
}

export async function migrateRollbackAll(db: Database, schema = 'public'): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback(migratorConfig(schema), true)) as [number, string[]];
  return reverted;
}
