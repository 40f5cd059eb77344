import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { controlError } from '../testing/error-code.js';
import { createInvoiceWith } from '../testing/invoice.test-support.js';
import { NOT_THE_RECEIVER } from './merchant-urls.test-support.js';

let t: TestApp;
appPerTest((app) => (t = app));

const CALLBACK_HINT =
  'Enter an absolute http:// or https:// URL, the example receiver /_sandbox/inbox/<merchant id>, or null.';

const createInvoice = (token: string, over?: Record<string, unknown>) =>
  createInvoiceWith(t, token, over);

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
    [{ callback_url: '/_sandbox/reset' }, 'callback_url', NOT_THE_RECEIVER],
    [{ callback_url: '/_sandbox/inbox/../reset' }, 'callback_url', NOT_THE_RECEIVER],
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
    expect(res.body).toEqual(controlError('validation_error', { [field]: [message] }));
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
    expect(unknown.body).toEqual(controlError('not_found', { non_field_errors: ['Not found.'] }));
  });
});
