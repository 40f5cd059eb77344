import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { parseAmount } from '../shared/money.js';
import { signRequest } from '../auth/hmac.js';
import { errorCode } from '../testing/error-code.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { sharedSpec } from '../sandbox.js';
import { isFormBody, parseFormBody } from './form-body.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('form-encoded bodies on developer writes', () => {
  it('creates a sell order from a signed form body exactly as from JSON (the signature covers the bytes as sent)', async () => {
    const dev = newDeveloper(t, { php: '5000' });
    const fields = {
      payment_outlet: 'coins_transfer',
      amount: '25',
      currency: 'PHP',
      pay_with_wallet: 'PBTC',
      target_address: t.fixtures.customers[0]!.email,
    };
    const raw = form(fields);
    expect(raw).toContain('%40');
    const res = await t.signed('POST', '/v1/sellorder', { ...as(dev), raw, headers: FORM });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({
      amount: '25',
      fields: { target_address: fields.target_address },
      payment_outlet: { id: 'coins_transfer' },
    });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('4975'));
    // The same fields as JSON answer the same body (apart from the id and time).
    const json = await t.signed('POST', '/v1/sellorder', { ...as(dev), body: fields });
    expect({ ...json.body.order, id: 0, created_time: 0 }).toEqual({
      ...res.body.order,
      id: 0,
      created_time: 0,
    });
    // A signature over other bytes (the JSON of the same fields) does not match the form sent, and moves nothing.
    const nonce = String(Date.now() * 1000);
    const sig = signRequest(
      dev.app.api_secret,
      nonce,
      'http://localhost/v1/sellorder',
      JSON.stringify(fields),
    );
    const headers = {
      ...FORM,
      ACCESS_KEY: dev.app.api_key,
      ACCESS_SIGNATURE: sig,
      ACCESS_NONCE: nonce,
    };
    const wrong = await t.request('POST', '/v1/sellorder', { raw, headers });
    expect(wrong.status).toBe(401);
    expect(errorCode(wrong.body)).toBe('invalid_signature');
    expect(balanceOf(t, dev.php)).toBe(parseAmount('4950'));
  });

  it('posts the official OAuth example: Bearer, a lone ACCESS_NONCE and data= (a form body) to /v1/sellorder', async () => {
    const dev = newDeveloper(t, { php: '5000' });
    const token = (
      await t.request('POST', `/_sandbox/apps/${dev.app.api_key}/tokens`, { body: {} })
    ).body.access_token as string;
    const raw = form({
      payment_outlet: 'bpi',
      amount: '1500',
      currency: 'PHP',
      pay_with_wallet: 'PBTC',
      bank_account_name: 'Juan dela Cruz',
      bank_account_number: '1234567890',
    });
    const res = await t.request('POST', '/v1/sellorder', {
      raw,
      headers: {
        ...FORM,
        authorization: `Bearer ${token}`,
        ACCESS_NONCE: String(Date.now() * 1000),
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({
      amount: '1500',
      fields: { account_name: 'Juan dela Cruz', account_number: '1234567890' },
    });
  });

  it('takes a form body on every developer write of the document, answering as the same fields in JSON', async () => {
    const writes = sharedSpec().spec.operations.filter(
      (op) => op.auth === 'hmac' && op.hasBody && op.method !== 'get',
    );
    expect(writes.length).toBeGreaterThanOrEqual(10);
    const dev = newDeveloper(t, { php: '5000' });
    // Fields that no write accepts as they are: each answers the same refusal either way, never
    // `malformed_json`, and nothing is written.
    const fields = { amount: '0', currency: 'XXX', account: 'no-such-account' };
    for (const op of writes) {
      const path = op.path.replace(/\{[^}]+\}/g, '0'.repeat(32));
      const method = op.method.toUpperCase();
      const asForm = await t.signed(method, path, { ...as(dev), raw: form(fields), headers: FORM });
      const asJson = await t.signed(method, path, { ...as(dev), body: fields });
      expect(errorCode(asForm.body), op.operationId).not.toBe('malformed_json');
      expect([asForm.status, asForm.body], op.operationId).toEqual([asJson.status, asJson.body]);
    }
    expect(balanceOf(t, dev.php)).toBe(parseAmount('5000'));
  });

  it('types form values as the document types the field, and refuses what is not one with the usual 400', async () => {
    const dev = newDeveloper(t, { php: '5000' });
    const customer = t.fixtures.customers[0]!;
    const body = {
      payer_contact_info: customer.email,
      receiving_account: dev.php,
      amount: '20',
      message: 'form',
    };
    const ok = await t.signed('POST', '/v3/payment-requests/', {
      ...as(dev),
      raw: form({ ...body, expires_in_seconds: '3600' }),
      headers: FORM,
    });
    expect(ok.status).toBe(201);
    const request = ok.body['payment-request'];
    expect(Date.parse(request.expires_at) - Date.parse(request.created_at)).toBe(3600_000);
    const bad = await t.signed('POST', '/v3/payment-requests/', {
      ...as(dev),
      raw: form({ ...body, expires_in_seconds: 'soon' }),
      headers: FORM,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['expires_in_seconds']);
    const transfer = await t.signed('POST', '/v3/transfers/', {
      ...as(dev),
      raw: form({ account: dev.php, target_address: customer.email, amount: '1.5' }),
      headers: FORM,
    });
    expect(transfer.status).toBe(201);
    expect(transfer.body.transfer).toMatchObject({ amount: '1.5', status: 'pending' });
  });

  it('keeps JSON only on the merchant API: a form body is malformed JSON there, as before', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      raw: form({ amount: '10', currency: 'PHP' }),
      headers: FORM,
    });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe('malformed_json');
  });
});

describe('parseFormBody', () => {
  it('reads the form content type with parameters and in any case, and nothing else', () => {
    expect(isFormBody('application/x-www-form-urlencoded')).toBe(true);
    expect(isFormBody('Application/X-WWW-Form-Urlencoded; charset=UTF-8')).toBe(true);
    expect(isFormBody('application/json')).toBe(false);
    expect(isFormBody('application/x-www-form-urlencodedx')).toBe(false);
    expect(isFormBody(undefined)).toBe(false);
  });

  it('decodes, keeps the last of a repeated name, types only what the document types, and ignores __proto__', () => {
    const types = { n: 'integer', x: 'number', b: 'boolean', s: 'string' };
    const body = parseFormBody(
      's=a+b%40c&n=12&n=13&x=1.5&b=true&amount=0.1&__proto__=1&bad=%E0%A4%A',
      types,
    );
    expect(body).toEqual({ s: 'a b@c', n: 13, x: 1.5, b: true, amount: '0.1', bad: '\uFFFD%A' });
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(parseFormBody('n=1e3&x=abc&b=yes', types)).toEqual({ n: '1e3', x: 'abc', b: 'yes' });
  });
});
