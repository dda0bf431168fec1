import type { Config } from 'jest';

// ts-jest with isolatedModules (set in tsconfig.json): TypeScript's own emit (decorator metadata included, which
// type-graphql reads), without a type check per file; `npm run typecheck` checks types once.
// Dependencies that ship only ES modules are compiled to CommonJS the same way.
const transform: Config['transform'] = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
  '^.+\\.m?js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } }],
};
const esmOnly = ['@scure/base', '@noble/hashes'];
const common = {
  transform,
  testEnvironment: '<rootDir>/test-support/environment.js',
  setupFilesAfterEnv: ['<rootDir>/test-support/setup.ts'],
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/console-ui/e2e/'],
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
  testTimeout: 30_000,
};

export default config;
