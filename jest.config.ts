import { availableParallelism } from 'node:os';
import type { Config } from 'jest';

// ts-jest with isolatedModules (set in tsconfig.json): TypeScript's own emit (decorator metadata included, which
// type-graphql reads), without a type check per file; `npm run typecheck` checks types once.
// Dependencies that ship only ES modules are compiled to CommonJS the same way.
const transform: Config['transform'] = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
  '^.+\\.m?js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } }],
};
const esmOnly = ['@scure/base', '@noble/hashes'];
/**
 * `Math` handed to every module as its own binding. Code in jest's sandbox looks a global up
 * through the vm context's interceptor, several times slower than in Node itself: a simulated
 * day of a control loop (edge/control/*.closed-loop.test.ts) spent half its time finding `Math`
 * (21.4 µs a step, 9.8 µs with it). Only `Math`: an injected name is a parameter of the module's
 * wrapper, and a module that declares one of its own (graphql-scalars' `const JSON`) no longer
 * parses; no module here declares `Math`.
 */
const sandboxInjectedGlobals = ['Math'];
const common = {
  transform,
  testEnvironment: '<rootDir>/test-support/environment.js',
  setupFilesAfterEnv: ['<rootDir>/test-support/setup.ts'],
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/console-ui/e2e/'],
  sandboxInjectedGlobals,
};

/**
 * The browser console's component tests: jsdom, compiled with console-ui's own tsconfig (DOM, JSX).
 * Its browser tests (console-ui/e2e) have their own config and script, `npm run test:e2e`.
 */
const consoleProject: NonNullable<Config['projects']>[number] = {
  displayName: 'console',
  testEnvironment: '<rootDir>/console-ui/src/test-support/jsdom-environment.cjs',
  transform: {
    ...transform,
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/console-ui/tsconfig.json' }],
  },
  setupFilesAfterEnv: ['<rootDir>/console-ui/src/test-support/setup.ts'],
  sandboxInjectedGlobals,
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testMatch: ['<rootDir>/console-ui/src/**/*.test.ts?(x)'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

/**
 * Three projects: `db` holds the tests whose subject is SQL behaviour (migrations, models,
 * services), which CI runs on PostgreSQL and again on PGlite; `console` the console's component
 * tests; `app` the rest.
 */
const config: Config = {
  projects: [
    { ...common, displayName: 'db', testMatch: ['<rootDir>/**/*.db.test.ts'] },
    {
      ...common,
      displayName: 'app',
      testMatch: ['<rootDir>/**/*.test.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, '\\.db\\.test\\.ts$', '/console-ui/'],
    },
    consoleProject,
  ],
  /**
   * At least two workers. Jest's default is one fewer than the cores, so one on the two-core
   * machines CI runs on; most test files wait on what they start (servers, PostgreSQL clusters,
   * Modbus peers, browsers) more than they compute, and each file has its own schema, ports and
   * Redis keys. On such a machine two workers ran the suite in 429 s against 703 s with one.
   */
  maxWorkers: Math.max(2, availableParallelism() - 1),
  testTimeout: 30_000,
};

export default config;
