import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode, merchantError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  amount: 20,
  currency: 'PHP',
  external_transaction_id: `ext-${Math.random()}`,
  ...over,
});
const count = () => (t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n;
const events = () =>
  (t.db.prepare('SELECT COUNT(*) AS n FROM outbox_events').get() as { n: number }).n;

describe('create invoice', () => {
  it('creates with a Token on v1 and returns the real shape', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({ external_transaction_id: 'test-126' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const inv = res.body.invoice;
    expect(inv).toMatchObject({
      status: 'pending',
      category: 'merchant',
      amount: '20.00000000',
      amount_due: '20.00000000',
      amount_received: '0.00000000',
      currency: 'PHP',
      external_transaction_id: 'test-126',
      payments: [],
      receiver: t.merchant.wallet_account_id,
      current_payment_reference_number: null,
    });
    expect(inv.id).toMatch(/^[0-9a-f]{32}$/);
    expect(inv.payment_url).toBe(`http://localhost/payment/invoice/${inv.id}`);
    expect(inv.supported_payment_collectors).toEqual(t.merchant.enabled_payment_collectors);
    // default lifetime is the merchant's (15 minutes for the first fixture merchant)
    const life = Date.parse(inv.expires_at) - Date.parse(inv.created_at);
    expect(life).toBeGreaterThanOrEqual(900_000 - 1);
    expect(life).toBeLessThanOrEqual(900_000 + 1);
    expect(Number(inv.expires_in_seconds)).toBeGreaterThanOrEqual(899);
    const ev = t.db
      .prepare('SELECT name, payload FROM outbox_events WHERE invoice_id = ?')
      .all(inv.id) as Array<{ name: string; payload: string }>;
    expect(ev.map((e) => e.name)).toEqual(['invoice.created']);
    expect(JSON.parse(ev[0]!.payload)).toEqual({
      event: {
        name: 'invoice.created',
        data: {
          id: inv.id,
          currency: 'PHP',
          amount: '20.00000000',
          amount_received: '0.00000000',
          external_transaction_id: 'test-126',
        },
      },
    });
  });

  it('accepts Bearer on v1 and Token on v3, with either token of the merchant', async () => {
    for (const [path, auth] of [
      ['/v1/invoices/', `Bearer ${t.merchant.bearer_token}`],
      ['/v3/invoices/', `Token ${t.merchant.merchant_api_token}`],
      ['/v3/invoices/', `Bearer ${t.merchant.merchant_api_token}`],
      ['/v3/invoices', `bearer ${t.merchant.bearer_token}`],
    ] as const) {
      const res = await t.request('POST', path, { headers: { authorization: auth }, body: body() });
      expect(res.status, `${path} ${auth}`).toBe(201);
    }
  });

  it('refuses a missing or unknown token with 401 invalid_token and changes nothing', async () => {
    for (const headers of [
      {},
      { authorization: 'Token nope' },
      { authorization: 'Basic abc' },
      { authorization: 'Token' },
    ] as Array<Record<string, string>>) {
      const res = await t.request('POST', '/v1/invoices/', { headers, body: body() });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(
        merchantError('invalid_token', { non_field_errors: ['Invalid token.'] }),
      );
    }
    expect(count()).toBe(0);
  });

  it.each([
    [{ amount: '1e3' }, 'amount', 'A valid number is required.'],
    [{ amount: -5 }, 'amount', 'Ensure this value is greater than 0.'],
    [{ amount: 0 }, 'amount', 'Ensure this value is greater than 0.'],
    [{ amount: '0.000000001' }, 'amount', 'Ensure that there are no more than 8 decimal places.'],
    [{ amount: 'NaN' }, 'amount', 'A valid number is required.'],
    [{ amount: '+5' }, 'amount', 'A valid number is required.'],
    [{ amount: true }, 'amount', 'A valid number is required.'],
    [{ currency: 'USD' }, 'currency', '"USD" is not a valid choice.'],
    [{ external_transaction_id: '' }, 'external_transaction_id', 'This field may not be blank.'],
    [
      { external_transaction_id: 'x'.repeat(256) },
      'external_transaction_id',
      'Ensure this field has no more than 255 characters.',
    ],
    [
      { description: 'd'.repeat(1001) },
      'description',
      'Ensure this field has no more than 1000 characters.',
    ],
    [{ metadata: [1] }, 'metadata', 'Expected a dictionary of items.'],
    [
      { supported_payment_collectors: ['bitcoin'] },
      'supported_payment_collectors',
      '"bitcoin" is not a valid choice.',
    ],
    [
      { expires_at: 'tomorrow-ish' },
      'expires_at',
      'Enter a valid date/time (ISO 8601) or a delta such as "1w 3d 2h 32m 5s".',
    ],
    [{ expires_at: '2001-01-01T00:00:00Z' }, 'expires_at', 'Expiry must be in the future.'],
  ])('rejects %j with a field error on %s and changes nothing', async (over, field, message) => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body(over),
    });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe('validation_error');
    expect(res.body.errors[field]).toContain(message);
    expect(count()).toBe(0);
    expect(events()).toBe(0);
  });

  it('reports every missing field at once', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: {},
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'amount',
      'currency',
      'external_transaction_id',
    ]);
    expect(res.body.errors.amount).toEqual(['This field is required.']);
  });

  it('accepts numeric strings and exact decimals', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({ amount: '1234.56789012' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.invoice.amount).toBe('1234.56789012');
    const r2 = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({ amount: 0.1 }),
    });
    expect(r2.body.invoice.amount).toBe('0.10000000');
  });

  it('enforces the merchant maximum in the real wording', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({ amount: 10000.01 }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      merchantError('amount_above_maximum', { amount: ['Amount should be at most 10000 PHP.'] }),
    );
    const ok = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({ amount: 10000 }),
    });
    expect(ok.status).toBe(201);
  });

  it('refuses a reused external_transaction_id per merchant, but not across merchants', async () => {
    const b = body({ external_transaction_id: 'dup-1' });
    expect(
      (await t.request('POST', '/v1/invoices/', { token: t.merchant.merchant_api_token, body: b }))
        .status,
    ).toBe(201);
    const again = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: b,
    });
    expect(again.status).toBe(400);
    // The real body, code and all.
    expect(again.body).toEqual({
      error_codes: ['duplicate_external_transaction_id'],
      errors: {
        external_transaction_id: ['External transaction ID has already been used for an invoice.'],
      },
    });
    // The unique key refuses the insert itself: no second row, no event, no count moved by its trigger.
    expect(count()).toBe(1);
    expect(events()).toBe(1);
    expect(
      t.db
        .prepare('SELECT SUM(n) FROM invoice_counts WHERE merchant_id = ?')
        .pluck()
        .get(t.merchant.id),
    ).toBe(1);
    expect(
      (
        await t.request('POST', '/v1/invoices/', {
          token: t.otherMerchant.merchant_api_token,
          body: b,
        })
      ).status,
    ).toBe(201);
  });

  it('limits collectors to the merchant’s enabled ones', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.otherMerchant.merchant_api_token,
      body: body({ supported_payment_collectors: ['cash_payment', 'bayad_deposit'] }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.supported_payment_collectors).toEqual([
      '"bayad_deposit" is not enabled for this merchant.',
    ]);
    const ok = await t.request('POST', '/v1/invoices/', {
      token: t.otherMerchant.merchant_api_token,
      body: body({ supported_payment_collectors: ['cash_payment'] }),
    });
    expect(ok.body.invoice.supported_payment_collectors).toEqual(['cash_payment']);
  });

  it('takes expires_at as ISO 8601 or as a delta', async () => {
    const delta = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({ expires_at: '1w 3d 2h 32m 5s' }),
    });
    const inv = delta.body.invoice;
    const seconds = (Date.parse(inv.expires_at) - Date.parse(inv.created_at)) / 1000;
    expect(Math.round(seconds)).toBe(7 * 86400 + 3 * 86400 + 2 * 3600 + 32 * 60 + 5);
    const iso = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({ expires_at: '2099-01-02T03:04:05.123456Z' }),
    });
    expect(iso.body.invoice.expires_at).toBe('2099-01-02T03:04:05.123456Z');
  });

  it('ignores unknown fields and never takes state from the body', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({
        status: 'fully_paid',
        amount_received: '20',
        id: 'f'.repeat(32),
        receiver: 'x',
        evil: 1,
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.invoice).toMatchObject({
      status: 'pending',
      amount_received: '0.00000000',
      receiver: t.merchant.wallet_account_id,
    });
    expect(res.body.invoice.id).not.toBe('f'.repeat(32));
  });

  it('keeps description and metadata', async () => {
    const res = await t.request('POST', '/v3/invoices/', {
      headers: { authorization: `Bearer ${t.merchant.bearer_token}` },
      body: body({ description: 'Order #42', metadata: { cart: [1, 2], customer: { id: 7 } } }),
    });
    const got = await t.request('GET', `/v3/invoices/${res.body.invoice.id}/`, {
      token: t.merchant.merchant_api_token,
    });
    expect(got.body.invoice.description).toBe('Order #42');
    expect(got.body.invoice.metadata).toEqual({ cart: [1, 2], customer: { id: 7 } });
  });
});

describe('retrieve and list', () => {
  async function create(token: string, over: Record<string, unknown> = {}) {
    return (await t.request('POST', '/v1/invoices/', { token, body: body(over) })).body.invoice;
  }

  it('retrieves on v1 and v3, with and without the trailing slash', async () => {
    const inv = await create(t.merchant.merchant_api_token);
    for (const path of [
      `/v1/invoices/${inv.id}`,
      `/v1/invoices/${inv.id}/`,
      `/v3/invoices/${inv.id}/`,
      `/v3/invoices/${inv.id}`,
    ]) {
      const res = await t.request('GET', path, { token: t.merchant.merchant_api_token });
      expect(res.status, path).toBe(200);
      expect(res.body.invoice.id).toBe(inv.id);
    }
  });

  it('answers GET /v1/invoices/{id} with no Authorization header at all (the merchant plugin polls so), not with a wrong one', async () => {
    const inv = await create(t.merchant.merchant_api_token);
    await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet' },
    });
    for (const path of [
      `/v1/invoices/${inv.id}`,
      `/v1/invoices/${inv.id}/`,
      `/d/api/invoices/${inv.id}/`,
    ]) {
      const res = await t.request('GET', path, { operationId: 'getInvoiceV1' });
      expect(res.status, path).toBe(200);
      expect(res.body.invoice).toMatchObject({
        id: inv.id,
        status: 'fully_paid',
        amount_due: '0.00000000',
        receiver: inv.receiver,
      });
    }
    const wrong = await t.request('GET', `/v1/invoices/${inv.id}`, {
      headers: { authorization: 'Token nope' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(
      merchantError('invalid_token', { non_field_errors: ['Invalid token.'] }),
    );
    const unknown = await t.request('GET', `/v1/invoices/${'0'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(merchantError('not_found', { non_field_errors: ['Not found.'] }));
    // Only the v1 read is public: v3 and the list still need a merchant.
    expect((await t.request('GET', `/v3/invoices/${inv.id}/`)).status).toBe(401);
    expect((await t.request('GET', '/v3/invoices/')).status).toBe(401);
  });

  it("carries the real resource's bitcoin-era fields: the locked rate, btc_amount_due at that rate, an address, empty sender fields", async () => {
    const inv = await create(t.merchant.merchant_api_token, { amount: 20 });
    expect(inv).toMatchObject({
      locked_rate: '621822.00000000',
      initial_rate: '621822.00000000',
      // 20 / 621822 = 0.0000321635… → 0.00003216
      btc_amount_due: '0.00003216',
      sender_name: '',
      sender_email: '',
      sender_mobile_number: '',
      payment_collector_fee_placement: 'top',
    });
    expect(inv.incoming_address).toMatch(/^3[1-9A-HJ-NP-Za-km-z]{33}$/);
    const other = await create(t.merchant.merchant_api_token, {
      external_transaction_id: 'another',
    });
    expect(other.incoming_address).not.toBe(inv.incoming_address);
    await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet', amount: '10' },
    });
    const half = (
      await t.request('GET', `/v1/invoices/${inv.id}`, { token: t.merchant.merchant_api_token })
    ).body.invoice;
    expect(half).toMatchObject({
      amount_due: '10.00000000',
      btc_amount_due: '0.00001608',
      incoming_address: inv.incoming_address,
    });
    await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet' },
    });
    const paid = (
      await t.request('GET', `/v1/invoices/${inv.id}`, { token: t.merchant.merchant_api_token })
    ).body.invoice;
    expect(paid).toMatchObject({ status: 'fully_paid', btc_amount_due: '0.00000000' });
  });

  it("answers 404 for another merchant's invoice, never its data", async () => {
    const inv = await create(t.merchant.merchant_api_token);
    const res = await t.request('GET', `/v1/invoices/${inv.id}`, {
      token: t.otherMerchant.merchant_api_token,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(merchantError('not_found', { non_field_errors: ['Not found.'] }));
    expect(res.text).not.toContain(inv.external_transaction_id);
    const list = await t.request('GET', '/v3/invoices/', {
      token: t.otherMerchant.merchant_api_token,
    });
    expect(list.body.meta.total_count).toBe(0);
  });

  it('lists newest first with page metas, filters and clamping', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 23; i++)
      ids.push(
        (await create(t.merchant.merchant_api_token, { external_transaction_id: `e-${i}` })).id,
      );
    await create(t.otherMerchant.merchant_api_token);
    const tok = t.merchant.merchant_api_token;
    const p1 = await t.request('GET', '/v3/invoices/', { token: tok });
    expect(p1.body.meta).toEqual({ total_count: 23, next_page: 2, previous_page: null });
    expect(p1.body.invoices.map((i: { id: string }) => i.id)).toEqual(
      ids.slice().reverse().slice(0, 10),
    );
    const p3 = await t.request('GET', '/v3/invoices/?page=3', { token: tok });
    expect(p3.body.meta).toEqual({ total_count: 23, next_page: null, previous_page: 2 });
    expect(p3.body.invoices).toHaveLength(3);
    const past = await t.request('GET', '/v3/invoices/?page=9', { token: tok });
    expect(past.status).toBe(200);
    expect(past.body).toEqual({
      invoices: [],
      meta: { total_count: 23, next_page: null, previous_page: 3 },
    });
    const big = await t.request('GET', '/v3/invoices/?per_page=1000', { token: tok });
    expect(big.body.invoices).toHaveLength(23);
    expect(big.body.meta.next_page).toBeNull();
    const byExt = await t.request('GET', '/v3/invoices/?external_transaction_id=e-5', {
      token: tok,
    });
    expect(byExt.body.invoices.map((i: { id: string }) => i.id)).toEqual([ids[5]]);
    expect(byExt.body.meta.total_count).toBe(1);
    const pending = await t.request('GET', '/v3/invoices/?status=pending&per_page=5', {
      token: tok,
    });
    expect(pending.body.meta).toEqual({ total_count: 23, next_page: 2, previous_page: null });
    const paid = await t.request('GET', '/v3/invoices/?status=fully_paid', { token: tok });
    expect(paid.body).toEqual({
      invoices: [],
      meta: { total_count: 0, next_page: null, previous_page: null },
    });
  });

  it.each([
    ['page=0', 'page', 'Ensure this value is greater than or equal to 1.'],
    ['page=abc', 'page', 'A valid integer is required.'],
    ['per_page=0', 'per_page', 'Ensure this value is greater than or equal to 1.'],
    ['per_page=1.5', 'per_page', 'A valid integer is required.'],
    ['status=paid', 'status', '"paid" is not a valid choice.'],
  ])('rejects ?%s with a field error', async (qs, field, message) => {
    const res = await t.request('GET', `/v3/invoices/?${qs}`, {
      token: t.merchant.merchant_api_token,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toEqual([message]);
  });
});
