import type { TestProject } from 'vitest/node';
import { clearReports, writeStoppedJunit } from '../../src/cli/contract.reports.js';
import { preflight, PreflightError } from './preflight.js';
import { reportsDir } from './run.summary.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The last nonce the preflight spent on CONTRACT_API_KEY ('' when there was no preflight). */
    contractNonceFloor: string;
  }
}

/**
 * vitest's global setup for the contract run: against a URL, the preflight runs before any case.
 * A failure is one line on stderr and exit code 2 (a usage/environment problem, not drift): nothing
 * else runs, so there is no stack trace and no wall of failed cases to read. The reports of an earlier
 * run (junit.xml, summary.json, drift.md, drift.json) are removed first, and a failed preflight leaves
 * a junit.xml of one failing case with its line.
 */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('contractNonceFloor', '');
  clearReports(reportsDir());
  if (!process.env.CONTRACT_BASE_URL) return;
  try {
    const { lastNonce } = await preflight(process.env);
    project.provide('contractNonceFloor', lastNonce);
  } catch (err) {
    if (!(err instanceof PreflightError)) throw err;
    const line = `contract preflight failed: ${err.message}`;
    writeStoppedJunit(reportsDir(), process.env.CONTRACT_BASE_URL, line);
    process.stderr.write(`${line}\n`);
    process.exit(2);
  }
}
