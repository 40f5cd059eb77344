import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { isExponentNumber, MAX_JSON_DEPTH, numberSourceOf, parseJsonBody } from './json-body.js';
import { errorCode, merchantError } from '../testing/error-code.js';
import { formatMoney, parseAmount } from '../shared/money.js';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);
const lastNonce = (key: string) =>
  (
    t.db.prepare('SELECT last_nonce FROM apps WHERE api_key = ?').get(key) as {
      last_nonce: string | null;
    }
  ).last_nonce;
const count = (table: string) =>
  (t.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('parseJsonBody', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more with validation_error`, () => {
    expect(parseJsonBody(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toThrow(
      expect.objectContaining({ code: 'validation_error', status: 400 }),
    );
    expect(() => parseJsonBody(`{"a":${nested(6000)}}`)).toThrow(/nesting is too deep/);
    // Brackets inside strings (escaped quotes included) are text, not nesting.
    const text = JSON.stringify({ note: '['.repeat(100) + '\\"{{{' });
    expect(parseJsonBody(text)).toEqual(JSON.parse(text));
  });

  it('remembers which numbers were written with an exponent, by container and key', () => {
    const body = parseJsonBody(
      '{"amount": 1e2, "plain": 100, "list": [5, 1E-7], "s": "1e2", "n": {"amount": 2.5e+1}}',
    ) as Record<string, any>;
    expect(isExponentNumber(body, 'amount')).toBe(true);
    expect(isExponentNumber(body, 'plain')).toBe(false);
    expect(isExponentNumber(body, 's')).toBe(false);
    expect(isExponentNumber(body.list, 0)).toBe(false);
    expect(isExponentNumber(body.list, 1)).toBe(true);
    expect(isExponentNumber(body.n, 'amount')).toBe(true);
    // The last of duplicate keys wins, as in JSON.parse.
    const dup = parseJsonBody('{"amount": 1e2, "amount": 100}') as object;
    expect(isExponentNumber(dup, 'amount')).toBe(false);
    expect(isExponentNumber(parseJsonBody('{"amount": 100, "amount": 1e2}'), 'amount')).toBe(true);
  });
});

describe('numbers JSON.parse does not keep', () => {
  it('remembers their source text: more than 15 significant digits, or an exponent', () => {
    const body = parseJsonBody(
      '{"a": 12345678.123456789, "b": 1.0000000000000001, "c": 20.5, "d": 100000000000000000000, "e": 0.00000001, "f": 1e2, "s": "12345678.123456789", "l": [123456789012345678]}',
    ) as Record<string, any>;
    expect(numberSourceOf(body, 'a')).toBe('12345678.123456789');
    expect(body.a).toBe(12345678.12345679); // what JSON.parse made of it
    expect(numberSourceOf(body, 'b')).toBe('1.0000000000000001');
    expect(numberSourceOf(body, 'c')).toBeUndefined();
    expect(numberSourceOf(body, 'd')).toBeUndefined(); // exactly 1e20: trailing zeros are not digits a double loses
    expect(numberSourceOf(body, 'e')).toBeUndefined();
    expect(numberSourceOf(body, 'f')).toBe('1e2');
    expect(numberSourceOf(body, 's')).toBeUndefined();
    expect(numberSourceOf(body.l, 0)).toBe('123456789012345678');
    // Digits in strings never make a number lossy.
    expect(
      numberSourceOf(parseJsonBody('{"ref": "12345678901234567890", "n": 5}'), 'n'),
    ).toBeUndefined();
  });

  const amounts: Array<[string, number, string | null]> = [
    ['12345678.123456789', 400, 'Ensure that there are no more than 8 decimal places.'],
    ['1.0000000000000001', 400, 'Ensure that there are no more than 8 decimal places.'],
    ['5000.1234567800000001', 400, 'Ensure that there are no more than 8 decimal places.'],
    ['123456789012345678', 400, 'Ensure this value is less than or equal to 10000000000.'],
    ['9999.123456780000000', 201, null],
    ['20.5', 201, null],
  ];
  it.each(amounts)(
    'an amount written %s as a JSON number is judged by its text, like the same string (%i)',
    async (text, status, message) => {
      const token = t.merchant.merchant_api_token;
      const before = count('invoices');
      for (const literal of [text, JSON.stringify(text)]) {
        const raw = `{"amount": ${literal}, "currency": "PHP", "external_transaction_id": "n-${count('invoices')}-${literal.length}"}`;
        const res = await t.request('POST', '/v3/invoices/', { token, raw });
        expect(res.status, literal).toBe(status);
        if (message) expect(res.body.errors, literal).toEqual({ amount: [message] });
        else expect(res.body.invoice.amount, literal).toBe(formatMoney(parseAmount(text)));
      }
      if (status === 400) expect(count('invoices')).toBe(before);
    },
  );
});

describe('amounts with up to 8 decimals but more digits than a double keeps', () => {
  // JSON.parse gives 90071992.54740994, 5000000000 and 1234567890.1234567 for these: the amount moved
  // must be what the client wrote, as when the same text is sent as a string.
  it('fund an account with exactly the written amount (control API)', async () => {
    const dev = newDeveloper(t, { php: '0' });
    const res = await t.request('POST', `/_sandbox/accounts/${dev.php}/fund`, {
      raw: '{"amount": 90071992.54740993}',
    });
    expect(res.status).toBe(200);
    expect(balanceOf(t, dev.php)).toBe(parseAmount('90071992.54740993'));
  });

  it('place a buy order of exactly the written amount (developer API, HMAC)', async () => {
    const dev = newDeveloper(t, { php: '0' });
    for (const text of ['5000000000.00000001', '1234567890.12345678']) {
      const res = await t.signed('POST', '/api/v2/buyorder/', {
        ...as(dev),
        raw: `{"currency_amount": ${text}, "payment_method": "cash_payment", "currency": "PHP"}`,
      });
      expect(res.status, text).toBe(201);
      expect(parseAmount(res.body.order.currency_amount), text).toBe(parseAmount(text));
    }
  });
});

describe('deeply nested bodies → 400, never 500', () => {
  it('refuses invoice metadata 6,000 arrays deep (under 64 KiB) and stores nothing', async () => {
    const raw = `{"amount": 20, "currency": "PHP", "external_transaction_id": "deep", "metadata": {"x": ${nested(6000)}}}`;
    expect(raw.length).toBeLessThan(64 * 1024);
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      raw,
    });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe('validation_error');
    expect(res.body.errors.non_field_errors[0]).toMatch(/nesting is too deep/);
    expect(count('invoices')).toBe(0);
  });

  it('refuses a deep fault body on the control API', async () => {
    const res = await t.request('POST', '/_sandbox/faults', {
      raw: `{"path": "/v1/**", "body": ${nested(5000)}}`,
    });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe('validation_error');
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
  });

  it('refuses deep sell-order fields without using up the nonce: the same nonce then works', async () => {
    const key = t.fixtures.developers[0]!.app.api_key;
    const good = {
      outlet_id: 'bpi',
      amount: '500',
      currency: 'PHP',
      external_transaction_id: 'deep-fields',
    };
    const raw = JSON.stringify({ ...good, fields: { x: 0 } }).replace(
      '{"x":0}',
      `{"x": ${nested(6000)}}`,
    );
    const deep = await t.signed('POST', '/v1/sellorder', { raw, nonce: '9000' });
    expect(deep.status).toBe(400);
    expect(errorCode(deep.body)).toBe('validation_error');
    expect(lastNonce(key)).toBeNull();
    const malformed = await t.signed('POST', '/v1/sellorder', {
      raw: '{"outlet_id": ',
      nonce: '9000',
    });
    expect(malformed.status).toBe(400);
    expect(errorCode(malformed.body)).toBe('malformed_json');
    expect(lastNonce(key)).toBeNull();
    const ok = await t.signed('POST', '/v1/sellorder', {
      body: { ...good, fields: { x: [[1]] } },
      nonce: '9000',
    });
    expect(ok.status).toBe(201);
    expect(lastNonce(key)).toBe('9000');
  });

  it('still answers 401 first for a bad signature on a deep body', async () => {
    const res = await t.signed('POST', '/v1/sellorder', {
      raw: `{"fields": ${nested(6000)}}`,
      secret: 'wrong',
    });
    expect(res.status).toBe(401);
  });
});

describe('amounts written as JSON numbers with an exponent', () => {
  it.each(['1e2', '1E2', '1e-7', '2.5e+1', '-1e2'])(
    'refuses %s on an invoice as the string form is refused',
    async (num) => {
      const res = await t.request('POST', '/v1/invoices/', {
        token: t.merchant.merchant_api_token,
        raw: `{"amount": ${num}, "currency": "PHP", "external_transaction_id": "exp-${num}"}`,
      });
      const asString = await t.request('POST', '/v1/invoices/', {
        token: t.merchant.merchant_api_token,
        body: { amount: num, currency: 'PHP', external_transaction_id: `exps-${num}` },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(asString.body);
      expect(count('invoices')).toBe(0);
    },
  );

  it('keeps plain numbers and strings working, and exponents where no amount is expected', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      raw: '{"amount": 100.5, "currency": "PHP", "external_transaction_id": "plain", "metadata": {"ratio": 1e-3}}',
    });
    expect(res.status).toBe(201);
    expect(res.body.invoice.amount).toBe('100.50000000');
    const fault = await t.request('POST', '/_sandbox/faults', {
      raw: '{"path": "/v1/invoices/nothing", "latency_ms": 1e1, "status": 503}',
    });
    expect(fault.status).toBe(201);
    expect(fault.body.fault.latency_ms).toBe(10);
  });

  it('refuses exponent amounts on signed transfers and partner fees, and on control balances', async () => {
    const dev = t.fixtures.developers[0]!;
    const php = dev.accounts.find((a) => a.currency === 'PHP')!;
    const transfers = count('transfers');
    const transfer = await t.signed('POST', '/v3/transfers/', {
      raw: `{"account": "${php.id}", "target_address": "${t.fixtures.customers[0]!.email}", "amount": 1e2}`,
    });
    expect(transfer.status).toBe(400);
    expect(transfer.body.errors.amount).toEqual(['A valid number is required.']);
    expect(count('transfers')).toBe(transfers);
    const fee = await t.signed('POST', '/v3/partner-payout-outlet-fees', {
      raw: '{"outlet_id": "bpi", "amount": 1e3}',
    });
    expect(fee.status).toBe(400);
    expect(fee.body.errors.amount).toEqual(['A valid number is required.']);
    const customer = await t.request('POST', '/_sandbox/customers', { raw: '{"balance": 5e3}' });
    expect(customer.status).toBe(400);
    expect(customer.body.errors.balance).toEqual(['A valid number is required.']);
  });
});

describe('numbers with a long run of zeros (docs/design.md#input-handling)', () => {
  // `5.000…0001` filling the body limit: trimming its zeros with /0+$/ took 16 s and held every
  // other request meanwhile.
  const zeros = '0'.repeat(64 * 1024 - 40);
  const long = `5.${zeros}1`;

  it('judges a 256 KiB number by its text: lossy, its source kept exactly', () => {
    // Four times the body limit: the old trim ran past this project's test bound on it.
    const huge = `5.${'0'.repeat(256 * 1024)}1`;
    const body = parseJsonBody(`{"amount":${huge}}`);
    expect(numberSourceOf(body, 'amount')).toBe(huge);
    expect((body as { amount: number }).amount).toBe(5);
    // Only trailing zeros: every digit a double keeps, no source remembered.
    const exact = parseJsonBody(`{"amount":5.${'0'.repeat(1024 * 1024)}}`);
    expect(numberSourceOf(exact, 'amount')).toBeUndefined();
  });

  it('answers the unauthenticated 64 KiB body with 401 in the envelope, and stores nothing', async () => {
    const raw = `{"amount":${long}}`;
    expect(raw.length).toBeLessThanOrEqual(64 * 1024);
    const res = await t.request('POST', '/v1/invoices/', { raw });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(
      merchantError('invalid_token', { non_field_errors: ['Invalid token.'] }),
    );
    expect(count('invoices')).toBe(0);
  });

  it('refuses the same amount, authenticated, for its decimals', async () => {
    const token = t.merchant.merchant_api_token;
    const amount = `5.${'0'.repeat(64 * 1024 - 120)}1`;
    const raw = `{"amount":${amount},"currency":"PHP","external_transaction_id":"zeros-1"}`;
    const res = await t.request('POST', '/v1/invoices/', { token, raw });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      amount: ['Ensure that there are no more than 8 decimal places.'],
    });
    expect(count('invoices')).toBe(0);
  });
});
