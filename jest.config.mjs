import nextJest from 'next/jest.js';

const createJestConfig = nextJest({ dir: './' });

/**
 * The unit tests that start a program npm does not install (redis-server, nginx, ffmpeg, PostgreSQL:
 * scripts/prerequisites.mjs): left out of `npm run test:quick` (JEST_QUICK=1), run by `npm test`.
 */
const SERVICE_TESTS = [
  '/server/cluster\\.test\\.ts$',
  '/server/cluster-nginx\\.test\\.ts$',
  '/server/live\\.test\\.ts$',
  '/server/faults\\.test\\.ts$',
  '/server/convert-guard\\.test\\.ts$',
  '/server/convert-limits\\.test\\.ts$',
];

/**
 * Left out of the PostgreSQL run (`npm run test:pg`, TEST_DATABASE=postgres): tests whose subject is
 * a media pipeline (RTMP, ffmpeg's conversions and their limits, the proxy's byte budget and its
 * shared slice cache) or what lies in front of the data (the headers and files under /web, the voice
 * relay between sockets, nginx's rolling restart), where the server's data is only the users and
 * rooms every other server test also writes on PostgreSQL. They run once, on SQLite, in
 * `npm run test:unit` (docs/testing.md "The server on PostgreSQL").
 */
const SQLITE_ONLY_TESTS = [
  '/server/live\\.test\\.ts$',
  '/server/convert\\.test\\.ts$',
  '/server/convert-limits\\.test\\.ts$',
  '/server/convert-guard\\.test\\.ts$',
  '/server/transcode\\.test\\.ts$',
  '/server/proxy-budget\\.test\\.ts$',
  '/server/proxy-cache\\.test\\.ts$',
  '/server/web\\.test\\.ts$',
  '/server/webrtc\\.test\\.ts$',
  '/server/cluster-nginx\\.test\\.ts$',
];

/**
 * Unit tests sit next to the code (*.test.ts / *.test.tsx). Client tests run in jsdom; a server test
 * opts into Node with a `@jest-environment node` docblock.
 * @type {import('jest').Config}
 */
const config = {
  testEnvironment: '<rootDir>/jest.environment.cjs',
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
  // With TEST_DATABASE=postgres, one throwaway PostgreSQL for the server tests (`npm run test:pg`).
  globalSetup: '<rootDir>/server/test-support/jest-global-setup.ts',
  globalTeardown: '<rootDir>/server/test-support/jest-global-teardown.ts',
  testPathIgnorePatterns: [
    '/node_modules/',
    '/e2e/',
    '/out/',
    '/.next/',
    '/bench/results/',
    ...(process.env.JEST_QUICK === '1' ? SERVICE_TESTS : []),
    ...(process.env.TEST_DATABASE === 'postgres' ? SQLITE_ONLY_TESTS : []),
  ],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  // Every core: Jest's default leaves one to its parent process, which on a 2-core machine means one
  // worker (147 s for the suite; 80 s on two).
  maxWorkers: '100%',
};

export default createJestConfig(config);
