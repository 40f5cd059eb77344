import { afterEach, describe, expect, it } from 'vitest';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { formatMoney, parseAmount } from '../shared/money.js';
import { errorCode } from '../testing/error-code.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
afterEach(() => t.close());

const payer = () => t.fixtures.customers[0]!;
const payerWallet = () => payer().accounts.find((a) => a.currency === 'PHP')!.id;

/** A request from a fresh developer to a fixture customer; `before` is the payer's balance then. */
async function pendingRequest(amount = '75', extra: Record<string, unknown> = {}) {
  const dev = newDeveloper(t, { php: '0' });
  const wallet = payerWallet();
  const before = balanceOf(t, wallet);
  const res = await t.signed('POST', '/v3/payment-requests/', {
    ...as(dev),
    body: {
      payer_contact_info: payer().email,
      receiving_account: dev.php,
      amount,
      message: 'invoice 42',
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return { dev, wallet, before, request: res.body['payment-request'] };
}

const setStatus = (id: string, status: unknown) =>
  t.request('POST', `/_sandbox/payment-requests/${id}/status`, { body: { status } });

describe('payment requests (createPaymentRequest, listPaymentRequests, getPaymentRequests)', () => {
  it('creates a pending request that moves nothing, listed under both list paths', async () => {
    t = createTestApp();
    const { dev, wallet, before, request } = await pendingRequest();
    // The recorded request's keys (parity/recorded payment-requests.har) but `invoice`; a year's lifetime as recorded.
    expect(request).toEqual({
      id: request.id,
      payer_contact_info: payer().email,
      payer_contact_info_type: 'email',
      payer_email: payer().email,
      amount: '75.00000000',
      currency: 'PHP', // as recorded (the peso wallet's own code is PBTC)
      message: 'invoice 42',
      message_scope: 'private',
      status: 'pending',
      receiving_account: dev.php,
      payment_url: `http://localhost/payment/request/${request.id}`,
      created_at: request.created_at,
      updated_at: request.created_at,
      expires_at: request.expires_at,
    });
    expect(Date.parse(request.expires_at) - Date.parse(request.created_at)).toBe(365 * 86_400_000);
    expect(balanceOf(t, wallet)).toBe(before);
    const list = await t.signed('GET', '/v3/payment-requests/', as(dev));
    expect(list.body).toEqual({
      'payment-requests': [request],
      meta: { total_count: 1, next_page: null, previous_page: null },
    });
    expect((await t.signed('GET', '/v3/getpayment-requests/', as(dev))).body).toEqual(list.body);
    expect((await t.signed('GET', '/api/v3/getpayment-requests/', as(dev))).body).toEqual(
      list.body,
    );
    t.assertLedger();
  });

  it("refuses an account that is not the owner's, an unknown payer and a bad amount (400, nothing stored)", async () => {
    t = createTestApp();
    const dev = newDeveloper(t);
    const other = newDeveloper(t);
    const payer = t.fixtures.customers[0]!.mobile_number;
    const cases: Array<[unknown, string, string]> = [
      [
        { payer_contact_info: payer, receiving_account: other.php, amount: 1 },
        'receiving_account',
        'validation_error',
      ],
      [
        { payer_contact_info: 'nobody@example.invalid', receiving_account: dev.php, amount: 1 },
        'payer_contact_info',
        'unknown_target',
      ],
      [
        { payer_contact_info: payer, receiving_account: dev.php, amount: 0 },
        'amount',
        'validation_error',
      ],
      [{ receiving_account: dev.php, amount: 1 }, 'payer_contact_info', 'validation_error'],
    ];
    for (const [body, field, code] of cases) {
      const res = await t.signed('POST', '/v3/payment-requests/', { ...as(dev), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(res.body)).toBe(code);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect((await t.signed('GET', '/v3/payment-requests/', as(dev))).body.meta.total_count).toBe(0);
  });
});

describe('POST /_sandbox/payment-requests/{id}/status (setPaymentRequestStatus)', () => {
  it("paid moves the amount from the payer's wallet to the receiving account in one transaction", async () => {
    t = createTestApp();
    const { dev, wallet, before, request } = await pendingRequest('75');
    const res = await setStatus(request.id, 'paid');
    expect(res.status).toBe(200);
    expect(res.body['payment-request']).toMatchObject({ id: request.id, status: 'paid' });
    expect(balanceOf(t, wallet)).toBe(before - parseAmount('75'));
    expect(balanceOf(t, dev.php)).toBe(parseAmount('75'));
    t.assertLedger();
  });

  it('declined and expired move nothing; only a pending request moves (409); unknown ids are 404', async () => {
    t = createTestApp();
    const a = await pendingRequest();
    const b = await pendingRequest();
    expect((await setStatus(a.request.id, 'declined')).body['payment-request'].status).toBe(
      'declined',
    );
    expect((await setStatus(b.request.id, 'expired')).body['payment-request'].status).toBe(
      'expired',
    );
    const again = await setStatus(a.request.id, 'paid');
    expect(again.status).toBe(409);
    expect(errorCode(again.body)).toBe('invalid_state_transition');
    expect((await setStatus('0'.repeat(32), 'paid')).status).toBe(404);
    const bad = await setStatus(a.request.id, 'pending');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['status']);
    expect(balanceOf(t, a.wallet)).toBe(a.before);
    expect(balanceOf(t, a.dev.php) + balanceOf(t, b.dev.php)).toBe(0n);
    t.assertLedger();
  });

  it('a payer without the money cannot pay (400 insufficient_balance), and the request stays pending', async () => {
    t = createTestApp();
    // One centavo more than the payer holds.
    const { wallet, before, request, dev } = await pendingRequest(
      formatMoney(balanceOf(t, payerWallet()) + 1_000_000n),
    );
    const res = await setStatus(request.id, 'paid');
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe('insufficient_balance');
    expect(
      (await t.signed('GET', '/v3/payment-requests/', as(dev))).body['payment-requests'][0].status,
    ).toBe('pending');
    expect(balanceOf(t, wallet)).toBe(before);
    t.assertLedger();
  });

  it('expires by itself on the sandbox clock once its expiry passes', async () => {
    t = createTestApp();
    const { dev, request } = await pendingRequest('75', { expires_in_seconds: 3600 });
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 3599 } });
    expect(
      (await t.signed('GET', '/v3/payment-requests/', as(dev))).body['payment-requests'][0].status,
    ).toBe('pending');
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 1 } });
    expect(
      (await t.signed('GET', '/v3/payment-requests/', as(dev))).body['payment-requests'][0],
    ).toMatchObject({ id: request.id, status: 'expired' });
    expect((await setStatus(request.id, 'paid')).status).toBe(409);
    t.assertLedger();
  });
});

describe('a request past its expiry before the clock has processed it', () => {
  it('is never paid late: the control API finds it expired (409) and nothing moves', async () => {
    t = createTestApp();
    const { dev, wallet, before, request } = await pendingRequest('75', {
      expires_in_seconds: 3600,
    });
    t.advance(3600); // the offset moves, the clock's own tick does not run
    const res = await setStatus(request.id, 'paid');
    expect(res.status).toBe(409);
    expect(errorCode(res.body)).toBe('invalid_state_transition');
    expect(
      (await t.signed('GET', '/v3/payment-requests/', as(dev))).body['payment-requests'][0].status,
    ).toBe('expired');
    expect(balanceOf(t, wallet)).toBe(before);
    t.assertLedger();
  });
});

describe('payment requests across tenants', () => {
  it('a customer of another tenant answers as unknown', async () => {
    t = createTestApp();
    const ws = await t.request('POST', '/_sandbox/workspaces', { body: {} });
    expect(ws.status).toBe(201);
    const dev = newDeveloper(t);
    const res = await t.signed('POST', '/v3/payment-requests/', {
      ...as(dev),
      body: {
        payer_contact_info: ws.body.workspace.customer.email,
        receiving_account: dev.php,
        amount: 1,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.payer_contact_info).toEqual([
      `No customer has the email or mobile number "${ws.body.workspace.customer.email}".`,
    ]);
  });
});
