import { describe, expect, it } from 'vitest';
import { parseAmount } from '../shared/money.js';
import { as } from '../testing/developer.test-support.js';
import type { TestApp } from '../testing/test-app.js';
import { SESSION_COOKIE } from './checkout.routes.js';
import {
  balanceOf,
  createInvoice,
  getPage,
  postForm,
  testIds,
  textOf,
} from '../testing/checkout.test-support.js';
import { OTHER, path, POOR, RICH, requestPagePerTest } from './request-page.test-support.js';

/**
 * Paying and declining a payment request as the payer on its page: the money that moves (or does not),
 * the states it ends in, and the sessions and form bodies it refuses. What the page shows is in
 * request-page.test.ts.
 */
let t: TestApp;
const { customer, walletOf, request, login, statusOf, txCount } = requestPagePerTest(
  (app) => (t = app),
);

describe('paying and declining as the payer', () => {
  it('pays: the payer is debited and the receiving account credited in one transaction, the outcome focused', async () => {
    const { dev, id } = await request(RICH, '75');
    const before = balanceOf(t, walletOf(RICH));
    const cookie = await login(id, RICH);
    const page = await getPage(t, path(id), cookie);
    expect(textOf(page.html, 'wallet-balance')).toBe('PHP 50,000.00');
    expect(page.html).toMatch(/data-testid="request-pay" data-outcome="">Pay PHP 75.00</);
    expect(testIds(page.html)).toContain('request-decline');

    const paid = await postForm(t, `${path(id)}/pay`, {}, cookie);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(path(id));
    expect(balanceOf(t, walletOf(RICH))).toBe(before - parseAmount('75'));
    expect(balanceOf(t, dev.php)).toBe(parseAmount('75'));
    const after = await getPage(t, path(id), cookie);
    expect(after.html).toMatch(/data-status="paid"/);
    expect(after.html).toMatch(
      /<h2 id="state-heading" tabindex="-1" data-outcome="">Paid\. The money was sent from your wallet\.<\/h2>/,
    );
    for (const gone of ['request-pay', 'request-decline', 'login-submit'])
      expect(testIds(after.html)).not.toContain(gone);
    // what the developer reads agrees
    const list = await t.signed('GET', '/v3/payment-requests/', as(dev));
    expect(list.body['payment-requests'][0]).toMatchObject({ id, status: 'paid' });
  });

  it('a second pay (double submit, reload) changes nothing and shows the paid state', async () => {
    const { dev, id } = await request(RICH, '75');
    const cookie = await login(id, RICH);
    const [a, b] = await Promise.all([
      postForm(t, `${path(id)}/pay`, {}, cookie),
      postForm(t, `${path(id)}/pay`, {}, cookie),
    ]);
    const third = await postForm(t, `${path(id)}/pay`, {}, cookie);
    for (const res of [a, b, third]) expect(res.status).toBe(303);
    expect(balanceOf(t, dev.php)).toBe(parseAmount('75'));
    expect(txCount()).toBe(1);
    // a decline after the payment changes nothing either
    expect((await postForm(t, `${path(id)}/decline`, {}, cookie)).status).toBe(303);
    expect(statusOf(id)).toBe('paid');
  });

  it('declines: status declined, no money moves, no buttons left', async () => {
    const { dev, id } = await request(RICH, '75');
    const before = balanceOf(t, walletOf(RICH));
    const cookie = await login(id, RICH);
    const res = await postForm(t, `${path(id)}/decline`, {}, cookie);
    expect(res.status).toBe(303);
    expect(statusOf(id)).toBe('declined');
    const page = await getPage(t, path(id), cookie);
    expect(page.html).toMatch(/data-status="declined">Declined</);
    expect(textOf(page.html, 'request-state')).toContain('No money was sent');
    expect(testIds(page.html)).not.toContain('request-pay');
    // paying a declined request changes nothing
    expect((await postForm(t, `${path(id)}/pay`, {}, cookie)).status).toBe(303);
    expect(balanceOf(t, walletOf(RICH))).toBe(before);
    expect(balanceOf(t, dev.php)).toBe(0n);
    expect(txCount()).toBe(0);
  });

  it('refuses another wallet with a clear message: no buttons, 403 on a post, nothing changes', async () => {
    const { dev, id } = await request(RICH, '75');
    const cookie = await login(id, OTHER);
    const page = await getPage(t, path(id), cookie);
    expect(textOf(page.html, 'wrong-payer')).toMatch(/sent to another wallet/);
    expect(testIds(page.html)).not.toContain('request-pay');
    expect(testIds(page.html)).not.toContain('request-decline');
    expect(testIds(page.html)).not.toContain('wallet-balance');
    const before = balanceOf(t, walletOf(OTHER));
    for (const action of ['pay', 'decline']) {
      const res = await postForm(t, `${path(id)}/${action}`, {}, cookie);
      expect(res.status, action).toBe(403);
      expect(testIds(res.html)).toContain('wrong-payer');
    }
    expect(statusOf(id)).toBe('pending');
    expect(balanceOf(t, walletOf(OTHER))).toBe(before);
    expect(balanceOf(t, dev.php)).toBe(0n);
  });

  it('a customer of another workspace cannot log in here; no or a foreign session pays nothing', async () => {
    const { id } = await request(RICH, '75');
    const ws = await t.request('POST', '/_sandbox/workspaces', { body: {} });
    const stranger = ws.body.workspace.customer;
    const res = await postForm(t, `${path(id)}/wallet/login`, {
      login: stranger.email,
      password: stranger.password,
    });
    expect(res.status).toBe(401);
    expect(res.cookie).toBeNull();
    expect(textOf(res.html, 'login-error')).toMatch(/not right/);
    // the payer's own login on an invoice page is no session here
    const inv = await createInvoice(t);
    const invoiceCookie = (
      await postForm(t, `/payment/invoice/${inv.id}/wallet/login`, {
        login: customer(RICH).email,
        password: customer(RICH).password,
      })
    ).cookie;
    for (const cookie of [null, invoiceCookie, `${SESSION_COOKIE}=forged.token`]) {
      const post = await postForm(t, `${path(id)}/pay`, {}, cookie);
      expect(post.status, String(cookie)).toBe(401);
      expect(testIds(post.html)).toContain('session-expired');
    }
    expect(statusOf(id)).toBe('pending');
    expect(txCount()).toBe(0);
  });

  it('insufficient balance is a clear message: Pay hidden, a post refused (409), the request stays pending', async () => {
    const { dev, id } = await request(POOR, '30');
    const cookie = await login(id, POOR);
    const page = await getPage(t, path(id), cookie);
    expect(textOf(page.html, 'insufficient-balance')).toMatch(/Insufficient balance/);
    expect(textOf(page.html, 'shortfall')).toBe('PHP 5.00');
    expect(testIds(page.html)).not.toContain('request-pay');
    expect(testIds(page.html)).toContain('request-decline');
    const res = await postForm(t, `${path(id)}/pay`, {}, cookie);
    expect(res.status).toBe(409);
    expect(testIds(res.html)).toContain('insufficient-balance');
    expect(statusOf(id)).toBe('pending');
    expect(balanceOf(t, walletOf(POOR))).toBe(parseAmount('25'));
    expect(balanceOf(t, dev.php)).toBe(0n);
  });

  it('an expired request shows its state and no buttons, even before the clock ticks; a pay then changes nothing', async () => {
    const { dev, id } = await request(RICH, '75', { expires_in_seconds: 3600 });
    const cookie = await login(id, RICH);
    t.advance(3600); // the clock's own tick has not run: the page still sees the expiry
    const page = await getPage(t, path(id), cookie);
    expect(page.html).toMatch(/data-status="expired">Expired</);
    expect(textOf(page.html, 'request-state')).toMatch(/expired and can no longer be paid/);
    for (const gone of ['request-pay', 'request-decline', 'login-submit'])
      expect(testIds(page.html)).not.toContain(gone);
    const res = await postForm(t, `${path(id)}/pay`, {}, cookie);
    expect(res.status).toBe(303);
    expect(statusOf(id)).toBe('expired');
    expect(balanceOf(t, dev.php)).toBe(0n);
    expect(txCount()).toBe(0);
  });

  it('a form body no parser reads is a 400 page that changes nothing; logout clears the session', async () => {
    const { id } = await request(RICH, '75');
    const cookie = await login(id, RICH);
    const res = await t.sandbox.app.request(`http://localhost${path(id)}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', cookie },
      body: '--y\r\nbroken',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('data-testid="bad-form"');
    expect(statusOf(id)).toBe('pending');
    const out = await postForm(t, `${path(id)}/wallet/logout`, {}, cookie);
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(
      new RegExp(`${SESSION_COOKIE}=;.*Path=/payment/request/${id}`),
    );
  });
});
