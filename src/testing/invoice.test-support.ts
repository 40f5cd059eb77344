import type { TestApp } from './test-app.js';

/** Test support for the merchant API's invoice tests (imported by *.test.ts only). */

/** A valid create body (20 PHP, a fresh external_transaction_id), with `over` on top. */
export const invoiceBody = (over: Record<string, unknown> = {}) => ({
  amount: 20,
  currency: 'PHP',
  external_transaction_id: `ext-${Math.random()}`,
  ...over,
});

/** `POST /v1/invoices/` with the merchant token given: a valid body of 10 PHP, with `over` on top. */
export const createInvoiceWith = (t: TestApp, token: string, over: Record<string, unknown> = {}) =>
  t.request('POST', '/v1/invoices/', { token, body: invoiceBody({ amount: 10, ...over }) });
