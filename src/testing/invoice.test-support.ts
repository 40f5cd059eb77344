/** Test support for the merchant API's invoice tests (imported by *.test.ts only). */

/** A valid create body (20 PHP, a fresh external_transaction_id), with `over` on top. */
export const invoiceBody = (over: Record<string, unknown> = {}) => ({
  amount: 20,
  currency: 'PHP',
  external_transaction_id: `ext-${Math.random()}`,
  ...over,
});
