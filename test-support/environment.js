// The jest environment of every Gridport test. Jest gives each test file a fresh sandbox, but
// this module is loaded once per worker process, so the PGlite instance it opens is shared by
// every test file that the worker runs (PGlite takes seconds to start). Tests isolate
// themselves by schema (see database.ts beside this file).
//
// The PGlite lives in this module's realm, the tests in the sandbox's: a Date made in one is
// not `instanceof Date` in the other. The connection handed to the sandbox therefore carries
// dates across: parameters become this realm's dates, result values the sandbox's.
const { TestEnvironment } = require('jest-environment-node');
// Gridport's own parsers (bigint ids as numbers, timestamps), as server/database.ts opens PGlite;
// required while jest loads this module, so that its transform compiles the TypeScript.
const { pgliteParsers } = require('../server/database-parsers');

let pglite = null;
// The search path the single PGlite session has now; each test database wants its own schema.
let activeSearchPath = null;
function sharedPglite() {
  if (!pglite) {
    const { PGlite } = require('@electric-sql/pglite');
    pglite = new PGlite({ parsers: pgliteParsers });
  }
  return pglite;
}

const isDate = (value) => Object.prototype.toString.call(value) === '[object Date]';

function connectionFor(sandboxDate) {
  const toSandbox = (value) => {
    if (isDate(value)) {
      return new sandboxDate(value.getTime());
    }
    if (Array.isArray(value)) {
      return value.map(toSandbox);
    }
    return value;
  };
  const db = sharedPglite();
  let searchPath = null;
  const ensureSearchPath = async () => {
    if (searchPath !== null && activeSearchPath !== searchPath) {
      await db.query(searchPath);
      activeSearchPath = searchPath;
    }
  };
  return {
    get waitReady() {
      return db.waitReady;
    },
    async query(sql, params, options) {
      if (/^set search_path to /i.test(sql)) {
        searchPath = sql;
      }
      await ensureSearchPath();
      const local = params && params.map((value) => (isDate(value) ? new Date(value.getTime()) : value));
      const result = await db.query(sql, local, options);
      return {
        ...result,
        rows: result.rows.map((row) => {
          const copy = {};
          for (const key of Object.keys(row)) {
            copy[key] = toSandbox(row[key]);
          }
          return copy;
        }),
      };
    },
    exec: async (sql, options) => {
      await ensureSearchPath();
      return db.exec(sql, options);
    },
    // The instance outlives every test file of the worker: a file's knex must not close it.
    close: async () => undefined,
  };
}

class GridportEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    const sandboxDate = this.global.Date;
    this.global.__gridportPgliteConnection = () => connectionFor(sandboxDate);
  }
}

module.exports = GridportEnvironment;
