import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import ProgressReporter from './harness/progress.reporter.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * `npm run contract`: the contract suite against the in-process sandbox (or CONTRACT_BASE_URL after
 * the preflight), plus the kit's own meta-tests. One line per case on the console; the suite writes
 * its reports itself (junit.xml with one classname per area, summary.json, drift.md/json).
 */
export default defineConfig({
  test: {
    root,
    include: ['contract-tests/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 90_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    globalSetup: ['contract-tests/harness/preflight.setup.ts'],
    reporters: [new ProgressReporter()],
    tags: [
      { name: 'read', description: 'safe anywhere: reads, and requests that must be refused' },
      { name: 'write', description: 'creates invoices' },
      {
        name: 'money',
        description: 'moves money; only with CONTRACT_ALLOW_MONEY=1 outside the sandbox',
      },
      { name: 'sandbox', description: 'needs the control API (/_sandbox); skipped elsewhere' },
    ],
  },
});
