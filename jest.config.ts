import type { Config } from 'jest';

// ts-jest with isolatedModules (set in tsconfig.json): TypeScript's own emit (decorator metadata included, which
// type-graphql reads), without a type check per file; `npm run typecheck` checks types once.
const transform: Config['transform'] = { '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] };
const common = {
  transform,
  testEnvironment: '<rootDir>/test-support/environment.js',
  setupFilesAfterEnv: ['<rootDir>/test-support/setup.ts'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/console-ui/e2e/'],
};

/**
 * Two projects: `db` holds the tests whose subject is SQL behaviour (migrations, models,
 * services), which CI runs on PostgreSQL and again on PGlite; `app` holds the rest.
 */
const config: Config = {
  projects: [
    { ...common, displayName: 'db', testMatch: ['<rootDir>/**/*.db.test.ts'] },
    { ...common, displayName: 'app', testMatch: ['<rootDir>/**/*.test.ts'], testPathIgnorePatterns: [...common.testPathIgnorePatterns, '\\.db\\.test\\.ts$'] },
  ],
  testTimeout: 30_000,
};

export default config;
