import { defineConfig } from 'vitest/config';

const ALL = ['src/**/*.test.ts', 'examples/**/*.test.ts', 'fixtures/**/*.test.ts'];

/**
 * Tests that drive something outside the test's own process: Chromium, a child process (the CLI, a
 * started server, kill -9), or the README run as a script. They run in the `e2e` project; everything
 * else (in-process apps, even on a loopback port) is `unit`, the inner loop (`npm run test:unit`).
 * A new test of that kind is named `*.browser.test.ts` or `*.e2e.test.ts`, or listed here.
 */
const E2E = [
  'src/**/*.browser.test.ts',
  'src/**/*.e2e.test.ts',
  'src/server.test.ts',
  'src/callbacks/crash.test.ts',
  'src/callbacks/trigger-cli.test.ts',
  'src/cli/cli-usage.test.ts',
  'src/cli/listen-cli.test.ts',
  'src/cli/server-log.test.ts',
  'src/db/durability.test.ts',
  'src/db/kill9-loop.test.ts',
  'src/testing/fuzz/fuzz.test.ts',
  'src/receiver-check/check-receiver-cli.test.ts',
  'src/testing/readme-recipes.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'test-artifacts/junit.xml' },
    projects: [
      { extends: true, test: { name: 'unit', include: ALL, exclude: E2E, isolate: false } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
