import { afterEach, beforeEach, expect } from 'vitest';
import { itemAt, required } from '../shared/defined.js';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { postForm } from '../testing/checkout.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Test support for the payer page of a payment request (request-page.test.ts,
 * request-page-payments.test.ts): a fresh sandbox per test, the ledger checked after each, and the
 * requests, logins and reads the tests make on it.
 */

/** Fixture customers by index: one rich enough to pay, another, and one too poor to. */
export const [RICH, OTHER, POOR] = [0, 1, 2];
/** The payer page of a payment request. */
export const path = (id: string) => `/payment/request/${id}`;

/**
 * For the calling test file: a fresh test app before each test, handed to `use` (its ledger's rules
 * checked after the test), and the helpers on it.
 */
export function requestPagePerTest(use: (t: TestApp) => void) {
  let app: TestApp | undefined;
  beforeEach(() => {
    app = createTestApp();
    use(app);
  });
  afterEach(() => {
    const t = current();
    t.assertLedger();
    return t.close();
  });
  const current = () => required(app, 'the test app (made before each test)');
  const customer = (i: number) => itemAt(current().fixtures.customers, i);
  const walletOf = (i: number) => itemAt(customer(i).accounts, 0).id;

  /** A request from a fresh developer (empty PHP wallet) to a fixture customer, through the developer API. */
  async function request(payer = RICH, amount = '75', extra: Record<string, unknown> = {}) {
    const t = current();
    const dev = newDeveloper(t, { php: '0' });
    const res = await t.signed('POST', '/v3/payment-requests/', {
      ...as(dev),
      body: {
        payer_contact_info: customer(payer).email,
        receiving_account: dev.php,
        amount,
        message: 'Dinner on Friday',
        ...extra,
      },
    });
    expect(res.status).toBe(201);
    return {
      dev,
      id: res.body['payment-request'].id as string,
      url: required(res.headers.get('x-sandbox-payment-url'), 'the X-Sandbox-Payment-Url header'),
    };
  }

  /** Log the customer in on the request's page: the session cookie. */
  const login = async (id: string, who: number) =>
    required(
      (
        await postForm(current(), `${path(id)}/wallet/login`, {
          login: customer(who).email,
          password: customer(who).password,
        })
      ).cookie,
      'the session cookie of the login',
    );
  const statusOf = (id: string) =>
    current().db.prepare('SELECT status FROM payment_requests WHERE id = ?').pluck().get(id);
  const txCount = () =>
    current()
      .db.prepare("SELECT COUNT(*) FROM ledger_transactions WHERE kind = 'payment_request'")
      .pluck()
      .get();
  return { customer, walletOf, request, login, statusOf, txCount };
}
