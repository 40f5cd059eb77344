import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const page = async () => {
  const res = await t.request('GET', '/_sandbox/', { operationId: false });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return res.text;
};

describe('GET /_sandbox/ (QA dashboard)', () => {
  it('shows every fixture credential, the clock and the forms', async () => {
    const html = await page();
    for (const m of t.fixtures.merchants) expect(html).toContain(m.merchant_api_token);
    for (const d of t.fixtures.developers) {
      expect(html).toContain(d.app.api_key);
      expect(html).toContain(d.app.api_secret);
    }
    for (const c of t.fixtures.customers) {
      expect(html).toContain(c.email);
      expect(html).toContain(c.password);
    }
    expect(html).toContain('data-testid="clock-now"');
    expect(html).toContain('data-form="advance"');
    expect(html).toContain('data-form="fault"');
    expect(html).toContain('data-token=""');
  });

  it('lists recent invoices with actions only while they are pending', async () => {
    const pending = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } });
    const paid = await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.fully_paid' } });
    const html = await page();
    const row = (id: string) => html.slice(html.indexOf(`data-invoice-id="${id}"`), html.indexOf('</tr>', html.indexOf(`data-invoice-id="${id}"`)));
    const p = row(pending.body.invoice.id);
    expect(p).toContain('data-testid="pay-full-wallet"');
    expect(p).toContain('data-testid="pay-full-counter"');
    expect(p).toContain('data-action="expire"');
    expect(p).toContain('data-action="cancel"');
    expect(p).toContain('value="50.00000000"');
    const f = row(paid.body.invoice.id);
    expect(f).toContain('fully_paid');
    expect(f).not.toContain('data-action="pay"');
  });

  it('shows active faults with their hits, and recent requests', async () => {
    await t.request('POST', '/_sandbox/faults', { body: { path: '/v1/invoices/*', status: 503, count: 3 } });
    await t.request('GET', '/v1/invoices/abc', { token: t.merchant.merchant_api_token, operationId: false });
    const html = await page();
    expect(html).toContain('/v1/invoices/*');
    expect(html).toContain('2 left');
    expect(html).toContain('1 hits');
    expect(html).toContain('GET /v1/invoices/abc');
  });

  it('escapes what it shows and loads nothing from elsewhere', async () => {
    await t.request('POST', '/_sandbox/merchants', { body: { name: '<script>alert(1)</script>' } });
    const html = await page();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
  });

  it('the calls its buttons make work as the page sends them', async () => {
    const inv = (await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } })).body.invoice;
    const part = await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, { body: { collector: 'coins_peso_wallet', amount: '50.00000000' } });
    expect(part.body.invoice.amount_due).toBe('50.00000000');
    const rest = await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, { body: { collector: 'cash_payment' } });
    expect(rest.body.invoice.status).toBe('fully_paid');
    expect((await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 900 } })).status).toBe(200);
    t.assertLedger();
  });
});
