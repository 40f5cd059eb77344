import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otpIsValid } from '../auth/otp.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const CALLBACK_HINT =
  'Enter an absolute http:// or https:// URL, the example receiver /_sandbox/inbox/<merchant id>, or null.';

const createInvoice = (token: string, over: Record<string, unknown> = {}) =>
  t.request('POST', '/v1/invoices/', {
    token,
    body: {
      amount: 10,
      currency: 'PHP',
      external_transaction_id: `x-${t.services.ids()}`,
      ...over,
    },
  });

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
    expect(wallet.body.account).toMatchObject({
      balance: '0.00000000',
      owner: { type: 'merchant', id: m.id },
    });
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
    expect(res.body.merchant).toMatchObject({
      enabled_payment_collectors: ['cash_payment'],
      max_invoice_amount: '250.50000000',
      invoice_lifetime_seconds: 60,
    });
    const tooMuch = await createInvoice(res.body.merchant.merchant_api_token, { amount: 251 });
    expect(tooMuch.body.errors.amount).toEqual(['Amount should be at most 250.5 PHP.']);
  });

  it.each([
    [{ callback_url: 'ftp://x.example/' }, 'callback_url', CALLBACK_HINT],
    [{ callback_url: 'not a url' }, 'callback_url', CALLBACK_HINT],
    [
      { callback_url: '/_sandbox/reset' },
      'callback_url',
      'On the sandbox itself a callback_url can only be its example receiver, /_sandbox/inbox/<merchant id>.',
    ],
    [
      { callback_url: '/_sandbox/inbox/../reset' },
      'callback_url',
      'On the sandbox itself a callback_url can only be its example receiver, /_sandbox/inbox/<merchant id>.',
    ],
    [{ callback_url: '//evil.example/x' }, 'callback_url', CALLBACK_HINT],
    [
      { redirect_url: 'javascript:alert(1)' },
      'redirect_url',
      'Enter an absolute http:// or https:// URL, a path on this sandbox (/…), or null.',
    ],
    [
      { enabled_payment_collectors: ['bitcoin'] },
      'enabled_payment_collectors',
      '"bitcoin" is not a valid choice.',
    ],
    [
      { enabled_payment_collectors: [] },
      'enabled_payment_collectors',
      'This list may not be empty.',
    ],
    [{ callback_auth: 'sometimes' }, 'callback_auth', '"sometimes" is not a valid choice.'],
    [{ max_invoice_amount: 0 }, 'max_invoice_amount', 'Ensure this value is greater than 0.'],
    [
      { max_invoice_amount: '99999999' },
      'max_invoice_amount',
      'Ensure this value is at most 10000000.',
    ],
    [
      { invoice_lifetime_seconds: 0 },
      'invoice_lifetime_seconds',
      'Ensure this value is greater than or equal to 1.',
    ],
    [{ name: '' }, 'name', 'This field may not be blank.'],
  ])('refuses %j with a field error on %s', async (body, field, message) => {
    const before = (await t.request('GET', '/_sandbox/merchants')).body.meta.total_count;
    const res = await t.request('POST', '/_sandbox/merchants', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_codes: ['validation_error'], errors: { [field]: [message] } });
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
    expect(
      Date.parse(inv.body.invoice.expires_at) - Date.parse(inv.body.invoice.created_at),
    ).toBeGreaterThanOrEqual(119_999);
    const cleared = await t.request('PATCH', `/_sandbox/merchants/${t.merchant.id}`, {
      body: { callback_url: null },
    });
    expect(cleared.body.merchant.callback_url).toBeNull();
  });

  it('PATCH refuses bad URLs with 400 (nothing changes) and unknown merchants with 404', async () => {
    const bad = await t.request('PATCH', `/_sandbox/merchants/${t.merchant.id}`, {
      body: { callback_url: 'mailto:x@y', name: 'Renamed' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.callback_url).toEqual([CALLBACK_HINT]);
    const list = await t.request('GET', '/_sandbox/merchants?per_page=100');
    expect(list.body.merchants.find((m: { id: string }) => m.id === t.merchant.id).name).toBe(
      t.merchant.name,
    );
    const unknown = await t.request('PATCH', `/_sandbox/merchants/${'0'.repeat(32)}`, {
      body: { name: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error_codes: ['not_found'],
      errors: { non_field_errors: ['Not found.'] },
    });
  });
});

describe('applications', () => {
  it('creates an app whose owner has a funded peso wallet, and it can sign requests', async () => {
    const res = await t.request('POST', '/_sandbox/apps', {
      body: { name: 'CI payouts', balance: '1234.5', mfa_whitelisted: true },
    });
    expect(res.status).toBe(201);
    const app = res.body.app;
    expect(app).toMatchObject({ name: 'CI payouts', mfa_whitelisted: true, last_nonce: null });
    expect(app.owner.accounts).toEqual([
      expect.objectContaining({ currency: 'PHP', balance: '1234.50000000' }),
      expect.objectContaining({ currency: 'BTC', balance: '0.00000000' }),
    ]);
    const accounts = await t.signed('GET', '/v3/crypto-accounts/', {
      key: app.api_key,
      secret: app.api_secret,
    });
    expect(accounts.status).toBe(200);
    expect(accounts.body['crypto-accounts'][0].balance).toBe('1234.50000000');
    t.assertLedger();
  });

  it("gives the owner an empty BTC wallet, so the clients' conversions and ?currency=BTC reads work", async () => {
    const { app } = (
      await t.request('POST', '/_sandbox/apps', {
        body: { balance: '1000', mfa_whitelisted: true },
      })
    ).body;
    const as = { key: app.api_key, secret: app.api_secret };
    const btc = await t.signed('GET', '/api/v3/crypto-accounts/?currency=BTC', as);
    expect(btc.status).toBe(200);
    expect(btc.body['crypto-accounts']).toEqual([
      expect.objectContaining({ currency: 'BTC', balance: '0.00000000' }),
    ]);
    const [peso, coin] = app.owner.accounts as Array<{ id: string }>;
    const convert = await t.signed('POST', '/v3/crypto-exchanges/', {
      ...as,
      body: { source_account: peso!.id, target_account: coin!.id, amount: '621.822' },
    });
    expect(convert.status).toBe(201);
    t.assertLedger();
  });

  it('defaults: not whitelisted, 100000 PHP; no body at all is fine', async () => {
    const res = await t.request('POST', '/_sandbox/apps');
    expect(res.status).toBe(201);
    expect(res.body.app.mfa_whitelisted).toBe(false);
    expect(res.body.app.owner.accounts[0].balance).toBe('100000.00000000');
  });

  it('refuses a bad balance or name', async () => {
    const apps = () => (t.db.prepare('SELECT COUNT(*) AS n FROM apps').get() as { n: number }).n;
    const before = apps();
    const balance = await t.request('POST', '/_sandbox/apps', { body: { balance: -1 } });
    expect(balance.status).toBe(400);
    expect(balance.body).toEqual({
      error_codes: ['validation_error'],
      errors: { balance: ['Ensure this value is greater than 0.'] },
    });
    const name = await t.request('POST', '/_sandbox/apps', { body: { name: '' } });
    expect(name.status).toBe(400);
    expect(name.body).toEqual({
      error_codes: ['validation_error'],
      errors: { name: ['This field may not be blank.'] },
    });
    expect(apps()).toBe(before);
  });

  it('nonce reset lets a key that sent a huge nonce use small ones again', async () => {
    const key = t.fixtures.developers[0]!.app.api_key;
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '1.7e+300' })).status).toBe(200);
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '5' })).status).toBe(401);
    const reset = await t.request('POST', `/_sandbox/apps/${key}/nonce/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body.app.last_nonce).toBeNull();
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '5' })).status).toBe(200);
    const unknown = await t.request('POST', '/_sandbox/apps/nope/nonce/reset');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error_codes: ['not_found'],
      errors: { non_field_errors: ['Not found.'] },
    });
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
    const unknown = await t.request('GET', '/_sandbox/apps/nope/otp');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error_codes: ['not_found'],
      errors: { non_field_errors: ['Not found.'] },
    });
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
    const paid = await t.request('POST', `/_sandbox/invoices/${inv.body.invoice.id}/payments`, {
      body: { collector: 'coins_peso_wallet', customer: c.mobile_number },
    });
    expect(paid.status).toBe(201);
    expect(
      (await t.request('GET', `/_sandbox/accounts/${c.accounts[0].id}`)).body.account.balance,
    ).toBe('49990.00000000');
    t.assertLedger();
  });

  it('takes the given email, mobile, password and balance', async () => {
    const body = {
      email: 'qa.one@example.ph',
      mobile_number: '+639171234567',
      password: 'hunter22',
      balance: 12,
    };
    const res = await t.request('POST', '/_sandbox/customers', { body });
    expect(res.body.customer).toMatchObject({
      email: 'qa.one@example.ph',
      mobile_number: '+639171234567',
      password: 'hunter22',
    });
    expect(res.body.customer.accounts[0].balance).toBe('12.00000000');
  });

  it('refuses a duplicate email (any case) or mobile with a field error, and bad input', async () => {
    const existing = t.fixtures.customers[0]!;
    const dupEmail = await t.request('POST', '/_sandbox/customers', {
      body: { email: existing.email.toUpperCase() },
    });
    expect(dupEmail.status).toBe(400);
    expect(dupEmail.body.errors.email).toEqual(['A user with this email already exists.']);
    const dupMobile = await t.request('POST', '/_sandbox/customers', {
      body: { mobile_number: existing.mobile_number },
    });
    expect(dupMobile.status).toBe(400);
    expect(dupMobile.body).toEqual({
      error_codes: ['validation_error'],
      errors: { mobile_number: ['A user with this mobile number already exists.'] },
    });
    const devEmail = await t.request('POST', '/_sandbox/customers', {
      body: { email: t.fixtures.developers[0]!.email },
    });
    expect(devEmail.status).toBe(400);
    expect(devEmail.body).toEqual({
      error_codes: ['validation_error'],
      errors: { email: ['A user with this email already exists.'] },
    });
    const bad: Array<[Record<string, string>, string]> = [
      [{ email: 'not-an-email' }, 'Enter a valid email address.'],
      [{ mobile_number: 'abc' }, 'Enter a valid value.'],
      [{ password: 'x' }, 'Ensure this field has at least 4 characters.'],
      [{ balance: '1.000000001' }, 'Ensure that there are no more than 8 decimal places.'],
    ];
    for (const [body, message] of bad) {
      const res = await t.request('POST', '/_sandbox/customers', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({
        error_codes: ['validation_error'],
        errors: { [Object.keys(body)[0]!]: [message] },
      });
    }
    expect((await t.request('GET', '/_sandbox/customers')).body.meta.total_count).toBe(
      t.fixtures.customers.length,
    );
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
    const funded = await t.request('POST', `/_sandbox/accounts/${account.id}/fund`, {
      body: { amount: '0.00000001' },
    });
    expect(funded.status).toBe(200);
    expect(funded.body.account.balance).toBe('50000.00000001');
    const merchantWallet = await t.request(
      'POST',
      `/_sandbox/accounts/${t.merchant.wallet_account_id}/fund`,
      { body: { amount: 7 } },
    );
    expect(merchantWallet.body.account).toMatchObject({
      balance: '7.00000000',
      owner: { type: 'merchant' },
    });
    t.assertLedger();
  });

  it('answers 404 for unknown and system accounts, 400 for bad amounts and overflow', async () => {
    const notFound = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { body });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({
        error_codes: ['not_found'],
        errors: { non_field_errors: ['Not found.'] },
      });
    };
    await notFound('GET', `/_sandbox/accounts/${'0'.repeat(32)}`);
    await notFound('POST', `/_sandbox/accounts/${'0'.repeat(32)}/fund`, { amount: 1 });
    await notFound('POST', '/_sandbox/accounts/system-funding/fund', { amount: 1 });
    await notFound('GET', '/_sandbox/accounts/system-counter-clearing');
    const id = t.fixtures.customers[0]!.accounts[0]!.id;
    const refused: Array<[unknown, string]> = [
      [0, 'Ensure this value is greater than 0.'],
      [-1, 'Ensure this value is greater than 0.'],
      ['1e5', 'A valid number is required.'],
      ['', 'A valid number is required.'],
      ['ten', 'A valid number is required.'],
      [undefined, 'This field is required.'],
      ['2000000000', 'Ensure this value is at most 1000000000.'],
    ];
    for (const [amount, message] of refused) {
      const res = await t.request('POST', `/_sandbox/accounts/${id}/fund`, {
        body: amount === undefined ? {} : { amount },
      });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body).toEqual({
        error_codes: ['validation_error'],
        errors: { amount: [message] },
      });
    }
    // Funding is bounded like every posting (docs/design.md#money-bounds): the peso funding account,
    // counterparty of every funding, reaches 90000000000 first.
    let overflow: Awaited<ReturnType<typeof t.request>> | undefined;
    for (let i = 0; i < 100 && !overflow; i++) {
      const res = await t.request('POST', `/_sandbox/accounts/${id}/fund`, {
        body: { amount: '1000000000' },
      });
      if (res.status !== 200) overflow = res;
    }
    expect(overflow?.status).toBe(400);
    expect(overflow?.body).toEqual({
      error_codes: ['validation_error'],
      errors: {
        amount: [
          "This would take the sandbox's PHP system account past 90000000000 PHP, the most the sandbox keeps exact.",
        ],
      },
    });
    t.assertLedger();
  });
});
