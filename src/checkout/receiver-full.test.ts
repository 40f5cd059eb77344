import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ACCOUNT_UNITS } from '../shared/money.js';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import {
  balanceOf,
  createInvoice,
  getPage,
  postForm,
  testIds,
  textOf,
} from '../testing/checkout.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * A payment the receiving wallet cannot take (the bound on money, docs/design.md#money-bounds) is refused
 * on the hosted pages as their other refusals are: the page again, with its message and a 409, never the
 * API's JSON 400; nothing moves.
 */
let t: TestApp;
afterEach(() => {
  t.assertLedger();
  return t.close();
});

const MESSAGE = (whose: string) =>
  `${whose} wallet cannot take this payment: it would pass 90000000000, the most the sandbox keeps exact. Nothing was paid.`;

/** Fund an account from outside, 10000000000 at a time, with as much as the funding account still has. */
async function fundAll(accountId: string) {
  for (;;) {
    const res = await t.request('POST', `/_sandbox/accounts/${accountId}/fund`, {
      body: { amount: '10000000000' },
    });
    if (res.status === 200) continue;
    const funding = t.services.ledger.get(t.services.ledger.systemAccount('funding', 'PHP'));
    const room = MAX_ACCOUNT_UNITS + (funding?.balance ?? 0n);
    const rest = await t.request('POST', `/_sandbox/accounts/${accountId}/fund`, {
      body: { amount: (Number(room / 1_000_000n) / 100).toFixed(2) },
    });
    expect(rest.status).toBe(200);
    return;
  }
}

describe('the invoice page', () => {
  it('answers a sandbox outcome the merchant wallet cannot take with the page, its notice and 409', async () => {
    t = createTestApp();
    const created = await t.request('POST', '/_sandbox/merchants', {
      body: { name: 'Full Shop', max_invoice_amount: '10000000' },
    });
    expect(created.status).toBe(201);
    const merchant = created.body.merchant;
    await fundAll(merchant.wallet_account_id);
    const before = balanceOf(t, merchant.wallet_account_id);
    // The other wallets of the sandbox hold more than 10000000 PHP less than the bound is from it.
    expect(before + 10_000_000n * 100_000_000n).toBeGreaterThan(MAX_ACCOUNT_UNITS);
    const invoice = await createInvoice(t, { amount: '10000000' }, merchant.merchant_api_token);

    const res = await postForm(t, `/payment/invoice/${invoice.id}/sandbox`, { outcome: 'full' });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(textOf(res.html, 'sandbox-receiver-full')).toBe(MESSAGE('The merchant&#39;s'));
    expect(testIds(res.html)).toContain('sandbox-chooser');
    expect(balanceOf(t, merchant.wallet_account_id)).toBe(before);
    const page = await getPage(t, `/payment/invoice/${invoice.id}`);
    expect(page.html).toMatch(/data-status="pending"/);
  });
});

describe('the payment request page', () => {
  it('answers a Pay the requester wallet cannot take with the page, its notice and 409', async () => {
    t = createTestApp({ config: { transferSettleSeconds: 0 } });
    const a = newDeveloper(t, { php: '0' });
    const b = newDeveloper(t, { php: '0' });
    const funded = await t.request('POST', `/_sandbox/accounts/${a.php}/fund`, {
      body: { amount: '10000000000' },
    });
    expect(funded.status).toBe(200);
    const send = async (from: typeof a, to: typeof a, amount: string) => {
      const sent = await t.signed('POST', '/v3/transfers/', {
        ...as(from),
        body: { account: from.php, target_address: to.php, amount },
      });
      expect(sent.status).toBe(201);
      const settled = await t.request(
        'POST',
        `/_sandbox/transfers/${sent.body.transfer.id}/status`,
        { body: { status: 'success' } },
      );
      expect(settled.status).toBe(200);
    };
    // a's total received: 10000000000 funded, then 8 round trips bring it to 10 short of the bound.
    for (let i = 0; i < 8; i++) {
      await send(a, b, '10000000000');
      await send(b, a, i === 7 ? '9999999990' : '10000000000');
    }
    expect(t.services.ledger.get(a.php)?.total_received).toBe(MAX_ACCOUNT_UNITS - 1_000_000_000n);

    const payer = t.fixtures.customers[0];
    if (!payer) throw new Error('no fixture customer');
    const request = await t.signed('POST', '/v3/payment-requests/', {
      ...as(a),
      body: { payer_contact_info: payer.email, receiving_account: a.php, amount: '75' },
    });
    expect(request.status).toBe(201);
    const id = request.body['payment-request'].id as string;
    const login = await postForm(t, `/payment/request/${id}/wallet/login`, {
      login: payer.email,
      password: payer.password,
    });
    const before = { a: balanceOf(t, a.php), payer: balanceOf(t, payer.accounts[0]?.id ?? '') };

    const res = await postForm(t, `/payment/request/${id}/pay`, {}, login.cookie);
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(textOf(res.html, 'receiver-full')).toBe(MESSAGE('The requester&#39;s'));
    expect({ a: balanceOf(t, a.php), payer: balanceOf(t, payer.accounts[0]?.id ?? '') }).toEqual(
      before,
    );
    expect(t.db.prepare('SELECT status FROM payment_requests WHERE id = ?').pluck().get(id)).toBe(
      'pending',
    );
  });
});
