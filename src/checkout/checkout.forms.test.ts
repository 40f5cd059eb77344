import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createInvoice } from '../testing/checkout.test-support.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const ACTIONS = ['wallet/login', 'wallet/confirm', 'wallet/logout', 'counter', 'sandbox'];

// Bodies a form route cannot parse: broken multipart (no closing boundary, no boundary at all, a
// boundary that never appears) and a multipart part with broken headers.
const BROKEN: Array<[string, string]> = [
  [
    'multipart/form-data; boundary=xyz',
    '--xyz\r\nContent-Disposition: form-data; name="login"\r\n\r\nann',
  ],
  ['multipart/form-data', 'login=ann'],
  ['multipart/form-data; boundary=abc', 'no boundary here at all'],
  ['multipart/form-data; boundary=xyz', '--xyz\r\nthis is not a header\r\n\r\nx\r\n--xyz--\r\n'],
];

describe('hosted page form posts with a body that cannot be parsed', () => {
  it('answer a 400 page, never a 500, and change nothing', async () => {
    const inv = await createInvoice(t);
    for (const action of ACTIONS) {
      for (const [type, body] of BROKEN) {
        const res = await t.sandbox.app.request(
          `http://localhost/payment/invoice/${inv.id}/${action}`,
          {
            method: 'POST',
            headers: { 'content-type': type },
            body,
          },
        );
        expect(res.status, `${action} ${type}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.headers.get('set-cookie')).toBeNull();
        expect(await res.text()).toMatch(/could not be read/);
      }
    }
    expect(
      (await t.request('GET', `/v1/invoices/${inv.id}`, { token: t.merchant.merchant_api_token }))
        .body.invoice.status,
    ).toBe('pending');
  });

  it('still answers 404 for an unknown invoice, whatever the body', async () => {
    const [type, body] = BROKEN[0]!;
    const res = await t.sandbox.app.request(
      `http://localhost/payment/invoice/${'0'.repeat(32)}/wallet/login`,
      { method: 'POST', headers: { 'content-type': type }, body },
    );
    expect(res.status).toBe(404);
  });
});
