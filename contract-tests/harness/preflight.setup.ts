import type { TestProject } from 'vitest/node';
import { preflight, PreflightError } from './preflight.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The last nonce the preflight spent on CONTRACT_API_KEY ('' when there was no preflight). */
    contractNonceFloor: string;
  }
}

/**
 * vitest's global setup for the contract run: against a URL, the preflight runs before any case.
 * A failure is one line on stderr and exit code 2 (a usage/environment problem, not drift): nothing
 * else runs, so there is no stack trace and no wall of failed cases to read.
 */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('contractNonceFloor', '');
  if (!process.env.CONTRACT_BASE_URL) return;
  try {
    const { lastNonce } = await preflight(process.env);
    project.provide('contractNonceFloor', lastNonce);
  } catch (err) {
    if (!(err instanceof PreflightError)) throw err;
    process.stderr.write(`contract preflight failed: ${err.message}\n`);
    process.exit(2);
  }
}
