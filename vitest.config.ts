import { defineConfig } from 'vitest/config';

const ALL = ['src/**/*.test.ts', 'examples/**/*.test.ts', 'fixtures/**/*.test.ts'];

/**
 * Tests that drive something outside the test's own process: Chromium, a child process (the CLI, a
 * started server, kill -9), or the README run as a script. They run in the `e2e` project; everything
 * else (in-process apps, even on a loopback port) is `unit`, the inner loop (`npm run test:unit`).
 * A new test of that kind is named `*.browser.test.ts` or `*.e2e.test.ts`, or listed here.
 */
const BROWSER = ['src/**/*.browser.test.ts'];
const E2E = [
  ...BROWSER,
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

/**
 * The suite holds on a busy 2-core machine (README: Tests): tests wait for conditions, never for an
 * amount of time, and their bounds are generous — a passing test takes only as long as it needs.
 * In-process and Chromium tests get two minutes, those that start a child process a minute and a
 * half. Chromium tests run one file at a time (project `browser`: one Chromium per file, reused by its
 * tests, after the other files), so no two browsers fight for the CPU.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'test-artifacts/junit.xml' },
    projects: [
      {
        extends: true,
        // In-process, but some are CPU-bound (property runs, hundreds of requests): on a 2-core machine
        // with other work running they take several times their quiet time, so the bound is generous.
        test: {
          name: 'unit',
          include: ALL,
          exclude: E2E,
          isolate: false,
          // Vitest leaves one core free by default: on a 2-core machine that is one worker for 1,100 tests.
          maxWorkers: 2,
          // Projects with different worker counts run one after the other: unit, e2e, browser.
          sequence: { groupOrder: 0 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          exclude: BROWSER,
          sequence: { groupOrder: 1 },
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: BROWSER,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
