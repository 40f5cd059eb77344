import { itemAt, required } from '../shared/defined.js';
import type { TestApp } from '../testing/test-app.js';

/**
 * Test support for the sell order API's tests (sell-orders.test.ts, sell-order-refusals.test.ts), each on
 * a fresh test app (appPerTest): the counts, ledger entries and outlets they read from it.
 */

/** The id of a developer's PHP wallet. */
export const phpWallet = (d: { accounts: Array<{ id: string; currency: string }> }) =>
  required(
    d.accounts.find((a) => a.currency === 'PHP'),
    "the developer's PHP wallet",
  ).id;

/** What the tests read from the current test app: sell orders stored, a transaction's entries, outlets. */
export function sellOrderHelpers(current: () => TestApp) {
  return {
    sellCount: () =>
      (current().db.prepare('SELECT COUNT(*) AS n FROM sell_orders').get() as { n: number }).n,
    /** The ledger entries of a transaction, by its reference. */
    entriesOf: (reference: string) =>
      current()
        .db.prepare(
          'SELECT t.kind, e.account_id, e.amount FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id WHERE t.reference = ? ORDER BY e.id',
        )
        .safeIntegers(true)
        .all(reference) as Array<{ kind: string; account_id: string; amount: bigint }>,
    /** An outlet whose middle bracket (1000 to 49999.99999999) charges `fraction` × amount + 10. */
    outletCharging: (fraction: string): string =>
      required(
        current().fixtures.payout_outlets.find(
          (o) =>
            itemAt(o.fees, 1).fee_percent === fraction && itemAt(o.fees, 1).fee_amount === '10',
        ),
        `an outlet charging ${fraction} + 10`,
      ).id,
  };
}
