import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAmount } from '../shared/money.js';
import { errorCode } from '../testing/error-code.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, balanceOf, newDeveloper, otpDeveloper } from '../testing/developer.test-support.js';
import { OTP_INVALID, developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const bpi = () => t.fixtures.payout_outlets[0]!.id;

/** The sell-order calls at the paths the public clients use: POST /v2, GET /v1 list, GET /v2/{id}. */
describe('sell orders at the clients’ paths', () => {
  it('creates through POST /api/v2/sellorder/ as the npm client does, debiting the wallet like v1', async () => {
    const dev = newDeveloper(t, { php: '5000' });
    const res = await t.signed('POST', '/api/v2/sellorder/', {
      ...as(dev),
      body: { payment_outlet: bpi(), amount: '500', currency: 'PHP', pay_with_wallet: 'PBTC' },
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.order).toMatchObject({
      amount: '500',
      delivery_status: 'pending_payment',
      payment_outlet: { id: bpi() },
    });
    expect(balanceOf(t, dev.php)).toBe(
      parseAmount('5000') - parseAmount(res.headers.get('x-sandbox-total')!),
    );
    t.assertLedger();
    // The same order through the other two paths (the v2 retrieve without the trailing slash, as the
    // npm client sends it: the slashed form is a 404, src/orders/sell-order-access.test.ts).
    const got = await t.signed(
      'GET',
      `/api/v2/sellorder/${res.body.order.id}?sellorder_id=${res.body.order.id}`,
      as(dev),
    );
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ order: res.body.order, success: true });
    const list = await t.signed('GET', '/v1/sellorder?limit=10&offset=0', as(dev));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      orders: [expect.objectContaining(res.body.order)],
      meta: { pagination: { total: 1, limit: 10, offset: 0 } },
    });
    // The history item carries the order's accounting as the recorded v1 history does: paid from the
    // wallet at rate 1 (500 + the bank fee), nothing due, nothing settled yet.
    const fee = res.headers.get('x-sandbox-fee') ?? '';
    const total = res.headers.get('x-sandbox-total') ?? '';
    expect(list.body.orders[0]).toMatchObject({
      btc_amount: total,
      btc_pending: '0',
      btc_received: total,
      due_btc_amount: '0',
      confirmation_code: res.body.order.id.slice(0, 8),
      confirmations: [],
      currency_amount: '500',
      currency_amount_locked: '500',
      currency_amount_received: '500',
      currency_fees: fee,
      currency_fees_locked: fee,
      currency_net: '500',
      currency_settled: '0',
      estimated_delivery_time: null,
      favorite_id: null,
      instructions: '',
      is_express: false,
    });
  });

  it('needs the OTP on v2 as on v1 (422) and refuses bad input (400) without a debit', async () => {
    const dev = otpDeveloper(t);
    const wallet = dev.accounts.find((a) => a.currency === 'PHP')!.id;
    const before = balanceOf(t, wallet);
    const noOtp = await t.signed('POST', '/v2/sellorder', {
      ...as(dev),
      body: { outlet_id: bpi(), amount: '10' },
    });
    expect(noOtp.status).toBe(422);
    expect(noOtp.body).toEqual(OTP_INVALID);
    const bad = await t.signed('POST', '/v2/sellorder', {
      body: { outlet_id: bpi(), amount: '-1' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.amount).toEqual(['Ensure this value is greater than 0.']);
    expect(balanceOf(t, wallet)).toBe(before);
  });

  it('lists v1 exactly as v2 pages (same order, same metas) and keeps owners apart on v2 retrieve', async () => {
    const v1 = await t.signed('GET', '/v1/sellorder?limit=7&offset=3');
    const v2 = await t.signed('GET', '/v2/sellorder?limit=7&offset=3');
    expect(v1.status).toBe(200);
    expect(v1.body.orders).toHaveLength(7);
    expect(v1.body).toEqual(v2.body);
    const bad = await t.signed('GET', '/v1/sellorder?limit=abc');
    expect(bad.status).toBe(400);
    const theirs = (await t.signed('GET', '/v2/sellorder?limit=1', as(otpDeveloper(t)))).body
      .orders[0];
    const other = await t.signed('GET', `/v2/sellorder/${theirs.id}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(developerError('not_found', { non_field_errors: ['Not found.'] }));
    const unsigned = await t.request('GET', `/v2/sellorder/${theirs.id}`);
    expect(unsigned.status).toBe(401);
  });

  it('takes a JSON number for a string field as its text, as Django REST framework does (the 2014 doc sends one)', async () => {
    const dev = newDeveloper(t, { php: '5000' });
    const send = (number: string) =>
      t.signed('POST', '/api/v2/sellorder', {
        ...as(dev),
        raw: `{"payment_outlet":"${bpi()}","amount":"100","currency":"PHP","bank_account_name":"John Smith","bank_account_number":${number}}`,
        headers: { 'content-type': 'application/json' },
      });
    const res = await send('9123456789');
    expect(res.status).toBe(201);
    expect(res.body.order.fields).toMatchObject({ account_number: '9123456789' });
    // A number JSON.parse cannot keep exactly is written as the client wrote it.
    const long = await send('123456789012345678901234');
    expect(long.status).toBe(201);
    expect(long.body.order.fields).toMatchObject({ account_number: '123456789012345678901234' });
    // A boolean is no string, for the real service either: 400, nothing written.
    const before = balanceOf(t, dev.php);
    const bad = await send('true');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ bank_account_number: ['Not a valid string.'] });
    expect(balanceOf(t, dev.php)).toBe(before);
  });

  it('takes the older spellings of the example scripts: btc_amount for amount, the bank fields as the order fields', async () => {
    const dev = newDeveloper(t, { php: '5000' });
    const body = {
      payment_outlet: bpi(),
      btc_amount: '1500',
      currency: 'PHP',
      bank_account_name: 'Juan dela Cruz',
      bank_account_number: '1234567890',
    };
    const res = await t.signed('POST', '/api/v2/sellorder', { ...as(dev), body });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({
      amount: '1500',
      fields: { account_name: 'Juan dela Cruz', account_number: '1234567890' },
    });
    expect(balanceOf(t, dev.php)).toBe(
      parseAmount('5000') - parseAmount(res.headers.get('x-sandbox-total')!),
    );
    t.assertLedger();
    // Explicit `fields` win over the older bank fields.
    const both = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: {
        ...body,
        btc_amount: undefined,
        amount: '10',
        fields: { account_name: 'Maria Santos' },
      },
    });
    expect(both.status).toBe(201);
    expect(both.body.order.fields).toEqual({
      account_name: 'Maria Santos',
      account_number: '1234567890',
    });
    const before = balanceOf(t, dev.php);
    const twice = await t.signed('POST', '/v2/sellorder', {
      ...as(dev),
      body: { ...body, amount: '1500' },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors.btc_amount).toEqual(['Send amount or btc_amount, not both.']);
    const none = await t.signed('POST', '/v2/sellorder', {
      ...as(dev),
      body: { payment_outlet: bpi(), currency: 'PHP' },
    });
    expect(none.status).toBe(400);
    expect(none.body.errors.amount).toEqual(['This field is required.']);
    const badBtc = await t.signed('POST', '/v2/sellorder', {
      ...as(dev),
      body: { payment_outlet: bpi(), btc_amount: '-5' },
    });
    expect(badBtc.status).toBe(400);
    expect(errorCode(badBtc.body)).toBe('validation_error');
    expect(balanceOf(t, dev.php)).toBe(before);
  });
});
