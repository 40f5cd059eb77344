import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otpIsValid } from '../auth/otp.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const createInvoice = (token: string, over: Record<string, unknown> = {}) =>
  t.request('POST', '/v1/invoices/', { token, body: { amount: 10, currency: 'PHP', external_transaction_id: `x-${t.services.ids()}`, ...over } });

describe('merchants', () => {
  it('creates a merchant with defaults, usable at once with either token', async () => {
    const res = await t.request('POST', '/_sandbox/merchants', { body: { name: 'Corner Shop' } });
    expect(res.status).toBe(201);
    const m = res.body.merchant;
    expect(m).toMatchObject({
      name: 'Corner Shop',
      callback_url: null,
      redirect_url: null,
      callback_auth: 'https-only',
      max_invoice_amount: '10000.00000000',
      invoice_lifetime_seconds: 900,
    });
    expect(m.enabled_payment_collectors).toContain('coins_peso_wallet');
    expect(m.enabled_payment_collectors).toContain('palawan_deposit');
    expect(m.merchant_api_token).toMatch(/^[0-9a-z]{40}$/);
    const wallet = await t.request('GET', `/_sandbox/accounts/${m.wallet_account_id}`);
    expect(wallet.body.account).toMatchObject({ balance: '0.00000000', owner: { type: 'merchant', id: m.id } });
    expect((await createInvoice(m.merchant_api_token)).status).toBe(201);
    const bearer = await t.request('POST', '/v3/invoices/', {
      headers: { authorization: `Bearer ${m.bearer_token}` },
      body: { amount: 10, currency: 'PHP', external_transaction_id: 'b-1' },
    });
    expect(bearer.status).toBe(201);
    const list = await t.request('GET', '/_sandbox/merchants?per_page=100');
    expect(list.body.merchants.map((x: { id: string }) => x.id)).toContain(m.id);
  });

  it('creates with every setting given', async () => {
    const res = await t.request('POST', '/_sandbox/merchants', {
      body: {
        callback_url: 'https://shop.example/cb',
        redirect_url: 'http://localhost:3000/done',
        enabled_payment_collectors: ['cash_payment'],
        callback_auth: 'always',
        max_invoice_amount: '250.5',
        invoice_lifetime_seconds: 60,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.merchant).toMatchObject({ enabled_payment_collectors: ['cash_payment'], max_invoice_amount: '250.50000000', invoice_lifetime_seconds: 60 });
    const tooMuch = await createInvoice(res.body.merchant.merchant_api_token, { amount: 251 });
    expect(tooMuch.body.errors.amount).toEqual(['Amount should be at most 250.5 PHP.']);
  });

  it.each([
    [{ callback_url: 'ftp://x.example/' }, 'callback_url'],
    [{ callback_url: 'not a url' }, 'callback_url'],
    [{ redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
    [{ enabled_payment_collectors: ['bitcoin'] }, 'enabled_payment_collectors'],
    [{ enabled_payment_collectors: [] }, 'enabled_payment_collectors'],
    [{ callback_auth: 'sometimes' }, 'callback_auth'],
    [{ max_invoice_amount: 0 }, 'max_invoice_amount'],
    [{ max_invoice_amount: '99999999' }, 'max_invoice_amount'],
    [{ invoice_lifetime_seconds: 0 }, 'invoice_lifetime_seconds'],
    [{ name: '' }, 'name'],
  ])('refuses %j with a field error on %s', async (body, field) => {
    const before = (await t.request('GET', '/_sandbox/merchants')).body.meta.total_count;
    const res = await t.request('POST', '/_sandbox/merchants', { body });
    expect(res.status).toBe(400);
    expect(res.body.errors[field]).toBeDefined();
    expect((await t.request('GET', '/_sandbox/merchants')).body.meta.total_count).toBe(before);
  });

  it('PATCH changes only the fields given; null clears a URL', async () => {
    const res = await t.request('PATCH', `/_sandbox/merchants/${t.merchant.id}`, {
      body: { callback_url: 'https://new.example/cb', invoice_lifetime_seconds: 120 },
    });
    expect(res.status).toBe(200);
    expect(res.body.merchant).toMatchObject({
      name: t.merchant.name,
      callback_url: 'https://new.example/cb',
      redirect_url: t.merchant.redirect_url,
      invoice_lifetime_seconds: 120,
      merchant_api_token: t.merchant.merchant_api_token,
    });
    const inv = await createInvoice(t.merchant.merchant_api_token);
    expect(Date.parse(inv.body.invoice.expires_at) - Date.parse(inv.body.invoice.created_at)).toBeGreaterThanOrEqual(119_999);
    const cleared = await t.request('PATCH', `/_sandbox/merchants/${t.merchant.id}`, { body: { callback_url: null } });
    expect(cleared.body.merchant.callback_url).toBeNull();
  });

  it('PATCH refuses bad URLs with 400 (nothing changes) and unknown merchants with 404', async () => {
    const bad = await t.request('PATCH', `/_sandbox/merchants/${t.merchant.id}`, { body: { callback_url: 'mailto:x@y', name: 'Renamed' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.callback_url).toEqual(['Enter an absolute http:// or https:// URL, or null.']);
    const list = await t.request('GET', '/_sandbox/merchants?per_page=100');
    expect(list.body.merchants.find((m: { id: string }) => m.id === t.merchant.id).name).toBe(t.merchant.name);
    expect((await t.request('PATCH', `/_sandbox/merchants/${'0'.repeat(32)}`, { body: { name: 'x' } })).status).toBe(404);
  });
});

describe('applications', () => {
  it('creates an app whose owner has a funded peso wallet, and it can sign requests', async () => {
    const res = await t.request('POST', '/_sandbox/apps', { body: { name: 'CI payouts', balance: '1234.5', mfa_whitelisted: true } });
    expect(res.status).toBe(201);
    const app = res.body.app;
    expect(app).toMatchObject({ name: 'CI payouts', mfa_whitelisted: true, last_nonce: null });
    expect(app.owner.accounts).toEqual([expect.objectContaining({ currency: 'PHP', balance: '1234.50000000' })]);
    const accounts = await t.signed('GET', '/v3/crypto-accounts/', { key: app.api_key, secret: app.api_secret });
    expect(accounts.status).toBe(200);
    expect(accounts.body['crypto-accounts'][0].balance).toBe('1234.50000000');
    t.assertLedger();
  });

  it('defaults: not whitelisted, 100000 PHP; no body at all is fine', async () => {
    const res = await t.request('POST', '/_sandbox/apps');
    expect(res.status).toBe(201);
    expect(res.body.app.mfa_whitelisted).toBe(false);
    expect(res.body.app.owner.accounts[0].balance).toBe('100000.00000000');
  });

  it('refuses a bad balance or name', async () => {
    expect((await t.request('POST', '/_sandbox/apps', { body: { balance: -1 } })).body.errors.balance).toBeDefined();
    expect((await t.request('POST', '/_sandbox/apps', { body: { name: '' } })).status).toBe(400);
  });

  it('nonce reset lets a key that sent a huge nonce use small ones again', async () => {
    const key = t.fixtures.developers[0]!.app.api_key;
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '1.7e+300' })).status).toBe(200);
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '5' })).status).toBe(401);
    const reset = await t.request('POST', `/_sandbox/apps/${key}/nonce/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body.app.last_nonce).toBeNull();
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '5' })).status).toBe(200);
    expect((await t.request('POST', '/_sandbox/apps/nope/nonce/reset')).status).toBe(404);
  });

  it('OTP is the code valid on the sandbox clock, even after the clock moves', async () => {
    const dev = t.fixtures.developers[0]!;
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 86_400 } });
    const res = await t.request('GET', `/_sandbox/apps/${dev.app.api_key}/otp`);
    expect(res.status).toBe(200);
    expect(res.body.otp).toMatch(/^\d{6}$/);
    expect(res.body.expires_in_seconds).toBeGreaterThanOrEqual(1);
    expect(res.body.expires_in_seconds).toBeLessThanOrEqual(30);
    expect(otpIsValid(dev.app.otp_secret, res.body.otp, t.services.clock.now() / 1000)).toBe(true);
    expect((await t.request('GET', '/_sandbox/apps/nope/otp')).status).toBe(404);
  });
});

describe('customers', () => {
  it('creates a customer with generated credentials and a funded wallet, usable to pay', async () => {
    const res = await t.request('POST', '/_sandbox/customers', { body: {} });
    expect(res.status).toBe(201);
    const c = res.body.customer;
    expect(c.email).toMatch(/@customer\.example\.ph$/);
    expect(c.mobile_number).toMatch(/^\+639\d{9}$/);
    expect(c.password).toMatch(/^sandbox-[0-9a-z]{8}$/);
    expect(c.accounts[0].balance).toBe('50000.00000000');
    const inv = await createInvoice(t.merchant.merchant_api_token);
    const paid = await t.request('POST', `/_sandbox/invoices/${inv.body.invoice.id}/payments`, { body: { collector: 'coins_peso_wallet', customer: c.mobile_number } });
    expect(paid.status).toBe(201);
    expect((await t.request('GET', `/_sandbox/accounts/${c.accounts[0].id}`)).body.account.balance).toBe('49990.00000000');
    t.assertLedger();
  });

  it('takes the given email, mobile, password and balance', async () => {
    const body = { email: 'qa.one@example.ph', mobile_number: '+639171234567', password: 'hunter22', balance: 12 };
    const res = await t.request('POST', '/_sandbox/customers', { body });
    expect(res.body.customer).toMatchObject({ email: 'qa.one@example.ph', mobile_number: '+639171234567', password: 'hunter22' });
    expect(res.body.customer.accounts[0].balance).toBe('12.00000000');
  });

  it('refuses a duplicate email (any case) or mobile with a field error, and bad input', async () => {
    const existing = t.fixtures.customers[0]!;
    const dupEmail = await t.request('POST', '/_sandbox/customers', { body: { email: existing.email.toUpperCase() } });
    expect(dupEmail.status).toBe(400);
    expect(dupEmail.body.errors.email).toEqual(['A user with this email already exists.']);
    const dupMobile = await t.request('POST', '/_sandbox/customers', { body: { mobile_number: existing.mobile_number } });
    expect(dupMobile.body.errors.mobile_number).toBeDefined();
    const devEmail = await t.request('POST', '/_sandbox/customers', { body: { email: t.fixtures.developers[0]!.email } });
    expect(devEmail.status).toBe(400);
    for (const body of [{ email: 'not-an-email' }, { mobile_number: 'abc' }, { password: 'x' }, { balance: '1.000000001' }]) {
      expect((await t.request('POST', '/_sandbox/customers', { body })).status).toBe(400);
    }
    expect((await t.request('GET', '/_sandbox/customers')).body.meta.total_count).toBe(t.fixtures.customers.length);
  });
});

describe('accounts', () => {
  it('shows any wallet with its owner, and funds it through the ledger', async () => {
    const account = t.fixtures.customers[0]!.accounts[0]!;
    const res = await t.request('GET', `/_sandbox/accounts/${account.id}`);
    expect(res.body.account).toMatchObject({
      id: account.id,
      currency: 'PHP',
      balance: '50000.00000000',
      pending_balance: '0.00000000',
      owner: { type: 'user', id: t.fixtures.customers[0]!.id },
    });
    const funded = await t.request('POST', `/_sandbox/accounts/${account.id}/fund`, { body: { amount: '0.00000001' } });
    expect(funded.status).toBe(200);
    expect(funded.body.account.balance).toBe('50000.00000001');
    const merchantWallet = await t.request('POST', `/_sandbox/accounts/${t.merchant.wallet_account_id}/fund`, { body: { amount: 7 } });
    expect(merchantWallet.body.account).toMatchObject({ balance: '7.00000000', owner: { type: 'merchant' } });
    t.assertLedger();
  });

  it('answers 404 for unknown and system accounts, 400 for bad amounts and overflow', async () => {
    expect((await t.request('GET', `/_sandbox/accounts/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await t.request('POST', `/_sandbox/accounts/${'0'.repeat(32)}/fund`, { body: { amount: 1 } })).status).toBe(404);
    const id = t.fixtures.customers[0]!.accounts[0]!.id;
    for (const amount of [0, -1, '1e5', '', 'ten']) {
      const res = await t.request('POST', `/_sandbox/accounts/${id}/fund`, { body: { amount } });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.errors.amount).toBeDefined();
    }
    expect((await t.request('POST', `/_sandbox/accounts/${id}/fund`, { body: {} })).body.errors.amount).toEqual(['This field is required.']);
    expect((await t.request('POST', `/_sandbox/accounts/${id}/fund`, { body: { amount: '2000000000' } })).status).toBe(400);
    expect((await t.request('POST', '/_sandbox/accounts/system-funding/fund', { body: { amount: 1 } })).status).toBe(404);
    expect((await t.request('GET', '/_sandbox/accounts/system-counter-clearing')).status).toBe(404);
    for (let i = 0; i < 10; i++) await t.request('POST', `/_sandbox/accounts/${id}/fund`, { body: { amount: '1000000000' } });
    const overflow = await t.request('POST', `/_sandbox/accounts/${id}/fund`, { body: { amount: '1000000000' } });
    expect(overflow.status).toBe(400);
    expect(overflow.body.errors.amount[0]).toMatch(/balance would exceed/);
    t.assertLedger();
  });
});
