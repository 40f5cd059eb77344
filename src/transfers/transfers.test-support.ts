import { afterEach, beforeEach } from 'vitest';
import { required } from '../shared/defined.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Test support for the transfer API's tests (transfers.test.ts, transfer-refusals.test.ts): a fresh
 * sandbox per test and the requests and counts they make on it.
 */

/** The id of a developer's wallet of the currency. */
export const walletOf = (
  d: { accounts: Array<{ id: string; currency: string }> },
  currency = 'PHP',
) =>
  required(
    d.accounts.find((a) => a.currency === currency),
    `the developer's ${currency} wallet`,
  ).id;

/**
 * For the calling test file: a fresh test app before each test, handed to `use`, and what the tests do
 * on it: send a transfer (`POST /v3/transfers/`, signed), count the stored transfers, and let the
 * sandbox clock run past the settle delay (10 s by default) and do the due work.
 */
export function transfersPerTest(use: (t: TestApp) => void) {
  let app: TestApp | undefined;
  beforeEach(() => {
    app = createTestApp();
    use(app);
  });
  afterEach(() => app?.close());
  const current = () => required(app, 'the test app (made before each test)');
  return {
    send: (body: Record<string, unknown>, o: Record<string, unknown> = {}) =>
      current().signed('POST', '/v3/transfers/', { body, ...o }),
    transferCount: () =>
      (current().db.prepare('SELECT COUNT(*) AS n FROM transfers').get() as { n: number }).n,
    settle: () => {
      current().advance(10);
      current().sandbox.tick();
    },
  };
}
