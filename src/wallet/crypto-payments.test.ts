import { afterEach, describe, expect, it } from 'vitest';
import {
  as,
  balanceOf,
  newDeveloper,
  otpDeveloper,
  otpNow,
} from '../testing/developer.test-support.js';
import {
  cryptoHelpers,
  customerWallet,
  expectEachRefused,
} from '../testing/crypto.test-support.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { OTP_INVALID, errorCode } from '../testing/error-code.js';

let t: TestApp;
afterEach(() => t.close());

const { pay, transactionsOf, statusSetter } = cryptoHelpers(() => t);

describe('POST /v3/crypto-payments/ (createCryptoPayment)', () => {
  it('holds the amount while pending and delivers it when the sandbox clock settles it', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '500' });
    const { customer, wallet, before } = customerWallet(t);
    const res = await pay(dev, {
      account: dev.php,
      target_address: customer.email,
      amount: '120.5',
      message: 'lunch',
    });
    expect(res.status).toBe(201);
    const payment = res.body['crypto-payment'];
    expect(payment).toEqual({
      id: payment.id,
      account: dev.php,
      tx_id: '',
      target_address: customer.email,
      entry_type: 'outgoing',
      amount: '120.50000000',
      fee_amount: '0.00000000',
      status: 'pending',
      created_at: payment.created_at,
    });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('379.5'));
    expect(balanceOf(t, wallet)).toBe(before);
    t.assertLedger();
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 10 } });
    const list = await t.signed('GET', '/v3/crypto-payments/', as(dev));
    expect(list.body['crypto-payments']).toEqual([{ ...payment, status: 'success' }]);
    expect(list.body.meta).toEqual({ total_count: 1, next_page: null, previous_page: null });
    expect(balanceOf(t, wallet)).toBe(before + parseAmount('120.5'));
    t.assertLedger();
  });

  it("sends to a developer's (an application owner's) email like a customer's", async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '500' });
    const owner = newDeveloper(t, { php: '0' });
    const email = t.services.identities.userById(owner.id)!.email!;
    const res = await pay(dev, { account: dev.php, target_address: email, amount: '7' });
    expect(res.status).toBe(201);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 10 } });
    expect(balanceOf(t, owner.php)).toBe(parseAmount('7'));
    t.assertLedger();
  });

  it('sends to an account id (its default_address) or a mobile number in the same currency', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '500' });
    const other = newDeveloper(t, { php: '0' });
    const customer = t.fixtures.customers[1]!;
    const byAccount = await pay(dev, { account: dev.php, target_address: other.php, amount: 10 });
    const byMobile = await pay(dev, {
      account: dev.php,
      target_address: customer.mobile_number,
      amount: 5,
    });
    // The official example scripts post under the /d/api prefix.
    const legacy = await t.signed('POST', '/d/api/crypto-payments/', {
      ...as(dev),
      body: { account: dev.php, target_address: other.php, amount: 1 },
    });
    expect([byAccount.status, byMobile.status, legacy.status]).toEqual([201, 201, 201]);
    t.advance(10);
    t.sandbox.tick();
    expect(balanceOf(t, other.php)).toBe(parseAmount('11'));
    expect(balanceOf(t, dev.php)).toBe(parseAmount('484'));
    t.assertLedger();
  });

  it("refuses others' accounts, unknown addresses, a currency mismatch and too little balance (400, nothing moves)", async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '50' });
    const other = newDeveloper(t);
    const cases: Array<[unknown, string, string]> = [
      [{ account: other.php, target_address: dev.php, amount: '1' }, 'account', 'validation_error'],
      [
        { account: dev.php, target_address: 'nobody@example.invalid', amount: '1' },
        'target_address',
        'unknown_target',
      ],
      [
        { account: dev.php, target_address: other.btc, amount: '1' },
        'target_address',
        'validation_error',
      ],
      [
        { account: dev.php, target_address: dev.php, amount: '1' },
        'target_address',
        'validation_error',
      ],
      [
        { account: dev.php, target_address: other.php, amount: '50.01' },
        'non_field_errors',
        'insufficient_balance',
      ],
      [{ account: dev.php, target_address: other.php }, 'amount', 'validation_error'],
    ];
    await expectEachRefused((body) => pay(dev, body), cases);
    expect(balanceOf(t, dev.php)).toBe(parseAmount('50'));
    expect((await t.signed('GET', '/v3/crypto-payments/', as(dev))).body.meta.total_count).toBe(0);
    t.assertLedger();
  });

  it('needs an OTP unless the application is whitelisted, like transfers', async () => {
    t = createTestApp();
    const dev = otpDeveloper(t);
    const from = dev.accounts.find((a) => a.currency === 'PHP')!.id;
    const body = { account: from, target_address: t.fixtures.customers[0]!.email, amount: '1' };
    const missing = await t.signed('POST', '/v3/crypto-payments/', { ...as(dev), body });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(OTP_INVALID);
    const withOtp = await t.signed('POST', '/v3/crypto-payments/', {
      ...as(dev),
      body: { ...body, otp: otpNow(t, dev.app.otp_secret) },
    });
    expect(withOtp.status).toBe(201);
    t.assertLedger();
  });
});

describe('POST /_sandbox/crypto-payments/{id}/status (setCryptoPaymentStatus)', () => {
  const setStatus = statusSetter('crypto-payments');

  it('success delivers the held amount to the target; failed gives it back to the paying account', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '500' });
    const { customer, wallet, before } = customerWallet(t);
    const settled = (
      await pay(dev, { account: dev.php, target_address: customer.email, amount: '120' })
    ).body['crypto-payment'];
    const failed = (
      await pay(dev, { account: dev.php, target_address: customer.email, amount: '80' })
    ).body['crypto-payment'];
    expect(balanceOf(t, dev.php)).toBe(parseAmount('300'));
    const ok = await setStatus(settled.id, 'success');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ 'crypto-payment': { ...settled, status: 'success' } });
    expect(balanceOf(t, wallet)).toBe(before + parseAmount('120'));
    t.assertLedger();
    const back = await setStatus(failed.id, 'failed');
    expect(back.status).toBe(200);
    expect(back.body['crypto-payment']).toEqual({ ...failed, status: 'failed' });
    // The failed amount is whole again on the paying account; the target got only the settled one.
    expect(balanceOf(t, dev.php)).toBe(parseAmount('380'));
    expect(balanceOf(t, wallet)).toBe(before + parseAmount('120'));
    const kinds = transactionsOf(failed.id);
    expect(kinds.map((k) => k.kind)).toEqual(['crypto_payment', 'crypto_payment_refund']);
    t.assertLedger();
    // The developer reads both as the control API left them, and the clock settles neither again.
    t.advance(10);
    t.sandbox.tick();
    const read = await t.signed('GET', `/v3/crypto-payments/${failed.id}/`, as(dev));
    expect(read.body['crypto-payment'].status).toBe('failed');
    expect(balanceOf(t, dev.php)).toBe(parseAmount('380'));
    t.assertLedger();
  });

  it("cannot fail a payment already past its delay, even before the clock's tick (409): it has settled", async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '50' });
    const { customer, wallet, before } = customerWallet(t);
    const p = (await pay(dev, { account: dev.php, target_address: customer.email, amount: '10' }))
      .body['crypto-payment'];
    t.advance(11); // past --transfer-delay, no tick has run
    const late = await setStatus(p.id, 'failed');
    expect(late.status).toBe(409);
    expect(late.body.errors).toEqual({
      non_field_errors: [
        'Crypto payment is success; only a pending crypto payment can become failed.',
      ],
    });
    expect(balanceOf(t, wallet)).toBe(before + parseAmount('10'));
    t.assertLedger();
  });

  it('moves only a pending payment (409), answers 404 for an unknown id and 400 for another status; nothing moves', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '50' });
    const p = (
      await pay(dev, {
        account: dev.php,
        target_address: t.fixtures.customers[0]!.email,
        amount: '10',
      })
    ).body['crypto-payment'];
    expect((await setStatus(p.id, 'failed')).status).toBe(200);
    const again = await setStatus(p.id, 'success');
    expect(again.status).toBe(409);
    expect(errorCode(again.body)).toBe('invalid_state_transition');
    expect(again.body.errors).toEqual({
      non_field_errors: [
        'Crypto payment is failed; only a pending crypto payment can become success.',
      ],
    });
    expect((await setStatus('0'.repeat(32), 'success')).status).toBe(404);
    const bad = await setStatus(p.id, 'pending');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['status']);
    expect(balanceOf(t, dev.php)).toBe(parseAmount('50'));
    t.assertLedger();
  });
});
