import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { invoiceBody as body } from '../testing/invoice.test-support.js';
import { errorCode, merchantError } from '../testing/error-code.js';

let t: TestApp;
appPerTest((app) => (t = app));

const count = () => (t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n;
const events = () =>
  (t.db.prepare('SELECT COUNT(*) AS n FROM outbox_events').get() as { n: number }).n;

describe('create invoice', () => {
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
});

describe('retrieve and list', () => {
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
