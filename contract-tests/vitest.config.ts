import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = process.env.CONTRACT_REPORTS_DIR || join(root, 'contract-tests', 'reports');

/** `npm run contract`: the contract suite against the in-process sandbox, plus the kit's own meta-tests. */
export default defineConfig({
  test: {
    root,
    include: ['contract-tests/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 90_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    reporters: ['default', 'junit'],
    outputFile: { junit: join(reports, 'junit.xml') },
    tags: [
      { name: 'read', description: 'safe anywhere: reads, and requests that must be refused' },
      { name: 'write', description: 'creates invoices' },
      { name: 'money', description: 'moves money; only with CONTRACT_ALLOW_MONEY=1 outside the sandbox' },
      { name: 'sandbox', description: 'needs the control API (/_sandbox); skipped elsewhere' },
    ],
  },
});
