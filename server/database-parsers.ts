import pg from 'pg';
import { timestamptzParser } from '../graph/common/timestamps';

/**
 * How values come back from the database, the same from PostgreSQL and from PGlite. Registered
 * with node-postgres when this module loads, and handed to every PGlite Gridport opens
 * (server/database.ts, and the tests' shared one in test-support/environment.js).
 */

// Ids are bigint columns; every id Gridport makes fits in a JavaScript number.
const parseBigint = (value: string): number => Number(value);
// Timestamps in their common form by arithmetic, any other by node-postgres's own parser
// (postgres-date; graph/common/timestamps.ts).
const parseTimestamptz = timestamptzParser(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text'));

pg.types.setTypeParser(pg.types.builtins.INT8, parseBigint);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

/**
 * PGlite's parsers where Gridport's differ from its own: the same as node-postgres's above.
 * (PGlite's own reads a timestamptz with `new Date(text)`, which takes a year below 100 for one
 * of the 1900s and misreads a zone with seconds, as PostgreSQL prints the local mean time of a
 * date before time zones.)
 */
export const pgliteParsers = {
  [pg.types.builtins.INT8]: parseBigint,
  [pg.types.builtins.TIMESTAMPTZ]: parseTimestamptz,
};
