import { required } from '../shared/defined.js';
import type { TestApp } from '../testing/test-app.js';

/**
 * Test support for the transfer API's tests (transfers.test.ts, transfer-refusals.test.ts), each on a
 * fresh test app (appPerTest): the requests and counts they make on it.
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
 * What the tests do on the current test app: send a transfer (`POST /v3/transfers/`, signed), count the
 * stored transfers, and let the sandbox clock run past the settle delay (10 s by default) and do the due
 * work.
 */
export function transferHelpers(current: () => TestApp) {
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
