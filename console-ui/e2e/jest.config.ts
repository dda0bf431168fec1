import type { Config } from 'jest';

/**
 * The console's browser tests: the real server (test-support/app.ts on a free port, PGlite) with
 * the built console, driven through Debian's Chromium by playwright-core. `npm run test:e2e`
 * builds the console first. They skip with a message where /usr/bin/chromium is missing,
 * unless REQUIRE_BROWSER=1 (CI), which makes that a failure.
 */
const esmOnly = ['@scure/base', '@noble/hashes', 'content-disposition'];
const config: Config = {
  rootDir: '../..',
  displayName: 'e2e',
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
    '^.+\\.m?js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  testEnvironment: '<rootDir>/test-support/environment.js',
  setupFilesAfterEnv: ['<rootDir>/test-support/setup.ts'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testMatch: ['<rootDir>/console-ui/e2e/**/*.e2e.test.ts'],
  testTimeout: 120_000,
  // One browser at a time: the machine's cores go to Chromium and the server.
  maxWorkers: 1,
};

export default config;
