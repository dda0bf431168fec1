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
