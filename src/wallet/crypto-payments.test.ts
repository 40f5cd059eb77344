import { afterEach, describe, expect, it } from 'vitest';
import { as, balanceOf, newDeveloper, otpDeveloper, otpNow } from '../orders/developer.test-support.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { OTP_INVALID, errorCode } from '../testing/error-code.js';

let t: TestApp;
afterEach(() => t.close());

const pay = (dev: ReturnType<typeof newDeveloper>, body: unknown) => t.signed('POST', '/v3/crypto-payments/', { ...as(dev), body });

describe('POST /v3/crypto-payments/ (createCryptoPayment)', () => {
  it('holds the amount while pending and delivers it when the sandbox clock settles it', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '500' });
    const customer = t.fixtures.customers[0]!;
    const wallet = customer.accounts.find((a) => a.currency === 'PHP')!.id;
    const before = balanceOf(t, wallet);
    const res = await pay(dev, { account: dev.php, target_address: customer.email, amount: '120.5', message: 'lunch' });
    expect(res.status).toBe(201);
    const payment = res.body['crypto-payment'];
    expect(payment).toMatchObject({ account: dev.php, target_address: customer.email, amount: '120.50000000', currency: 'PBTC', message: 'lunch', status: 'pending' });
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

  it('sends to an account id (its default_address) or a mobile number in the same currency', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '500' });
    const other = newDeveloper(t, { php: '0' });
    const customer = t.fixtures.customers[1]!;
    const byAccount = await pay(dev, { account: dev.php, target_address: other.php, amount: 10 });
    const byMobile = await pay(dev, { account: dev.php, target_address: customer.mobile_number, amount: 5 });
    // The official example scripts post under the /d/api prefix.
    const legacy = await t.signed('POST', '/d/api/crypto-payments/', { ...as(dev), body: { account: dev.php, target_address: other.php, amount: 1 } });
    expect([byAccount.status, byMobile.status, legacy.status]).toEqual([201, 201, 201]);
    t.advance(10);
    t.sandbox.tick();
    expect(balanceOf(t, other.php)).toBe(parseAmount('11'));
    expect(balanceOf(t, dev.php)).toBe(parseAmount('484'));
    t.assertLedger();
  });

  it('refuses others\' accounts, unknown addresses, a currency mismatch and too little balance (400, nothing moves)', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '50' });
    const other = newDeveloper(t);
    const cases: Array<[unknown, string, string]> = [
      [{ account: other.php, target_address: dev.php, amount: '1' }, 'account', 'validation_error'],
      [{ account: dev.php, target_address: 'nobody@example.invalid', amount: '1' }, 'target_address', 'unknown_target'],
      [{ account: dev.php, target_address: other.btc, amount: '1' }, 'target_address', 'validation_error'],
      [{ account: dev.php, target_address: dev.php, amount: '1' }, 'target_address', 'validation_error'],
      [{ account: dev.php, target_address: other.php, amount: '50.01' }, 'non_field_errors', 'insufficient_balance'],
      [{ account: dev.php, target_address: other.php }, 'amount', 'validation_error'],
    ];
    for (const [body, field, code] of cases) {
      const res = await pay(dev, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(res.body)).toBe(code);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
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
    const withOtp = await t.signed('POST', '/v3/crypto-payments/', { ...as(dev), body: { ...body, otp: otpNow(t, dev.app.otp_secret) } });
    expect(withOtp.status).toBe(201);
    t.assertLedger();
  });
});
