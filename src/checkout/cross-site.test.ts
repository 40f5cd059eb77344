import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { balanceOf, createInvoice, testIds } from '../testing/checkout.test-support.js';

// Form posts of the hosted pages from another site are refused (403 page, nothing done); the page's own
// posts (same Origin, or a same-origin Referer, or no browser headers at all) go through.
let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => {
  t.assertLedger();
  return t.close();
});

const customer = () => t.fixtures.customers[0]!;

async function post(
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
  cookie?: string,
) {
  const h: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    ...headers,
  };
  if (cookie) h.cookie = cookie;
  const res = await t.sandbox.app.request(`http://localhost${path}`, {
    method: 'POST',
    headers: h,
    body: new URLSearchParams(form).toString(),
  });
  const set = res.headers.get('set-cookie');
  return { status: res.status, html: await res.text(), cookie: set ? set.split(';')[0]! : null };
}

const FOREIGN: Array<[string, Record<string, string>]> = [
  ['another site', { origin: 'http://evil.example' }],
  ['another port of localhost', { origin: 'http://localhost:8081' }],
  ['an opaque origin', { origin: 'null' }],
  ['no Origin, a foreign Referer', { referer: 'http://localhost:8081/attack.html' }],
  ['another scheme of this host', { origin: 'https://localhost' }],
  // DNS rebinding: the attacker's name re-pointed at the sandbox, so its page is same-origin with itself.
  ['a rebound host name', { host: 'evil.example', origin: 'http://evil.example' }],
];

async function paymentRequest() {
  const dev = newDeveloper(t, { php: '0' });
  const res = await t.signed('POST', '/v3/payment-requests/', {
    ...as(dev),
    body: { payer_contact_info: customer().email, receiving_account: dev.php, amount: '5' },
  });
  expect(res.status).toBe(201);
  return res.body['payment-request'].id as string;
}

describe('cross-site form posts to the hosted pages', () => {
  it.each(FOREIGN)(
    'refuses every invoice page post from %s: 403 page, the invoice and the wallet unchanged',
    async (_, headers) => {
      const inv = await createInvoice(t);
      const page = `/payment/invoice/${inv.id}`;
      const session = (
        await post(`${page}/wallet/login`, {
          login: customer().email,
          password: customer().password,
        })
      ).cookie!;
      const before = balanceOf(t, customer().accounts[0]!.id);
      const posts: Array<[string, Record<string, string>]> = [
        ['/sandbox', { outcome: 'full' }],
        ['/sandbox', { outcome: 'expire' }],
        ['/wallet/confirm', {}],
        ['/wallet/login', { login: customer().email, password: customer().password }],
        ['/wallet/logout', {}],
        ['/counter', { outlet: t.fixtures.payin_outlets[0]!.id }],
      ];
      for (const [action, form] of posts) {
        const res = await post(`${page}${action}`, form, headers, session);
        expect(res.status, action).toBe(403);
        expect(testIds(res.html), action).toContain('cross-site');
        expect(res.html).toContain(`href="${page}"`);
        expect(res.cookie, action).toBeNull();
      }
      const row = t.services.invoiceRepo.byId(inv.id)!;
      expect(row.status).toBe('pending');
      expect(row.current_payment_reference_number).toBeNull();
      expect(balanceOf(t, customer().accounts[0]!.id)).toBe(before);
      // The session survived the foreign logout: the page's own confirm still pays.
      expect(
        (await post(`${page}/wallet/confirm`, {}, { origin: 'http://localhost' }, session)).status,
      ).toBe(303);
    },
  );

  it.each(FOREIGN)('refuses every payment request page post from %s', async (_, headers) => {
    const id = await paymentRequest();
    const page = `/payment/request/${id}`;
    const session = (
      await post(`${page}/wallet/login`, { login: customer().email, password: customer().password })
    ).cookie!;
    for (const action of ['/pay', '/decline', '/wallet/logout', '/wallet/login']) {
      const res = await post(
        `${page}${action}`,
        { login: customer().email, password: customer().password },
        headers,
        session,
      );
      expect(res.status, action).toBe(403);
      expect(testIds(res.html), action).toContain('cross-site');
    }
    expect(t.db.prepare('SELECT status FROM payment_requests WHERE id = ?').pluck().get(id)).toBe(
      'pending',
    );
    expect((await post(`${page}/pay`, {}, { origin: 'http://localhost' }, session)).status).toBe(
      303,
    );
    expect(t.db.prepare('SELECT status FROM payment_requests WHERE id = ?').pluck().get(id)).toBe(
      'paid',
    );
  });

  it('takes the page’s own posts: same Origin, a same-origin Referer, the public URL, or no browser header', async () => {
    const inv = await createInvoice(t);
    const page = `/payment/invoice/${inv.id}`;
    const outlet = { outlet: t.fixtures.payin_outlets[0]!.id };
    expect((await post(`${page}/counter`, outlet, { origin: 'http://localhost' })).status).toBe(
      303,
    );
    expect(
      (await post(`${page}/counter`, outlet, { referer: `http://localhost${page}` })).status,
    ).toBe(303);
    const publicOrigin = new URL(t.sandbox.config.publicUrl).origin;
    const login = await post(
      `${page}/wallet/login`,
      { login: customer().email, password: customer().password },
      { origin: publicOrigin },
    );
    expect(login.status).toBe(303);
    expect((await post(`${page}/sandbox`, { outcome: 'full' })).status).toBe(303);
    expect(t.services.invoiceRepo.byId(inv.id)!.status).toBe('fully_paid');
  });

  it('says why a rebound host is refused, and takes a host named with --allowed-hosts', async () => {
    const inv = await createInvoice(t);
    const page = `/payment/invoice/${inv.id}`;
    const headers = { host: 'mybox:7070', origin: 'http://mybox:7070' };
    const refused = await post(`${page}/sandbox`, { outcome: 'full' }, headers);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('--allowed-hosts');
    expect(refused.html).toContain('not at &quot;mybox:7070&quot;');
    await t.close();
    t = createTestApp({ config: { allowedHosts: ['mybox'] } });
    const again = await createInvoice(t);
    const res = await post(`/payment/invoice/${again.id}/sandbox`, { outcome: 'full' }, headers);
    expect(res.status).toBe(303);
    expect(t.services.invoiceRepo.byId(again.id)?.status).toBe('fully_paid');
  });

  it('leaves reads alone: a GET of the page with a foreign Origin or Referer is served', async () => {
    const inv = await createInvoice(t);
    const headers = { origin: 'http://evil.example', referer: 'http://evil.example/' };
    expect(
      (await t.sandbox.app.request(`http://localhost/payment/invoice/${inv.id}`, { headers }))
        .status,
    ).toBe(200);
  });
});
