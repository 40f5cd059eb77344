import { expect } from 'vitest';
import { itemAt, required } from '../shared/defined.js';
import { as, balanceOf, type newDeveloper } from './developer.test-support.js';
import { errorCode } from './error-code.js';
import type { TestApp, TestResponse } from './test-app.js';

/**
 * Helpers of the crypto exchange and crypto payment tests (crypto-exchanges*.test.ts,
 * crypto-exchange-*.test.ts, crypto-payments.test.ts), on the test's current app.
 */

type Developer = ReturnType<typeof newDeveloper>;

export function cryptoHelpers(app: () => TestApp) {
  const exchange = (dev: Developer, body: unknown) =>
    app().signed('POST', '/v3/crypto-exchanges/', { ...as(dev), body });
  const pay = (dev: Developer, body: unknown) =>
    app().signed('POST', '/v3/crypto-payments/', { ...as(dev), body });
  /** The developer's conversions, newest first (the first page). */
  const listed = async (dev: Developer) =>
    (await app().signed('GET', '/v3/crypto-exchanges/', as(dev))).body['crypto-exchanges'];
  /** The ledger transactions a conversion or a payment posted (its id is their reference), in posting order. */
  const transactionsOf = (id: string) =>
    app()
      .db.prepare('SELECT id, kind FROM ledger_transactions WHERE reference = ? ORDER BY rowid')
      .all(id) as Array<{ id: string; kind: string }>;
  /** `POST /_sandbox/<resource>/{id}/status`: the control API moves a pending conversion or payment. */
  const statusSetter =
    (resource: 'crypto-exchanges' | 'crypto-payments') => (id: string, status: unknown) =>
      app().request('POST', `/_sandbox/${resource}/${id}/status`, { body: { status } });
  /** Let the sandbox clock run past the settle delay (`--transfer-delay`, 10 s by default) and do the due work. */
  const settle = () => {
    app().advance(10);
    app().sandbox.tick();
  };
  return { exchange, pay, listed, transactionsOf, statusSetter, settle };
}

/** Send each body: every one is refused with 400, the code given, and an error on that field alone. */
export async function expectEachRefused(
  send: (body: unknown) => Promise<TestResponse>,
  cases: Array<[body: unknown, field: string, code: string]>,
): Promise<void> {
  for (const [body, field, code] of cases) {
    const res = await send(body);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(errorCode(res.body)).toBe(code);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  }
}

/** A fixture customer (the first by default), the id of its PHP wallet and that wallet's balance now. */
export function customerWallet(t: TestApp, index = 0) {
  const customer = itemAt(t.fixtures.customers, index);
  const wallet = required(
    customer.accounts.find((a) => a.currency === 'PHP'),
    `a PHP wallet of fixture customer ${index}`,
  ).id;
  return { customer, wallet, before: balanceOf(t, wallet) };
}
