import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fund } from '../fixtures/load.js';
import { parseYamlDocument, specPath } from '../spec/load.js';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { SESSION_COOKIE } from './checkout.routes.js';
import {
  balanceOf,
  createInvoice,
  getPage,
  postForm,
  testIds,
  textOf,
} from '../testing/checkout.test-support.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => {
  t.assertLedger();
  return t.close();
});

const [RICH, OTHER, POOR] = [0, 1, 2];
const customer = (i: number) => t.fixtures.customers[i]!;
const walletOf = (i: number) => customer(i).accounts[0]!.id;
const path = (id: string) => `/payment/request/${id}`;

/** A request from a fresh developer (empty PHP wallet) to a fixture customer, through the developer API. */
async function request(payer = RICH, amount = '75', extra: Record<string, unknown> = {}) {
  const dev = newDeveloper(t, { php: '0' });
  const res = await t.signed('POST', '/v3/payment-requests/', {
    ...as(dev),
    body: {
      payer_contact_info: customer(payer).email,
      receiving_account: dev.php,
      amount,
      message: 'Dinner on Friday',
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return {
    dev,
    id: res.body['payment-request'].id as string,
    url: res.headers.get('x-sandbox-payment-url')!,
  };
}

const login = async (id: string, who: number) =>
  (
    await postForm(t, `${path(id)}/wallet/login`, {
      login: customer(who).email,
      password: customer(who).password,
    })
  ).cookie!;
const statusOf = (id: string) =>
  t.db.prepare('SELECT status FROM payment_requests WHERE id = ?').pluck().get(id);
const txCount = () =>
  t.db
    .prepare("SELECT COUNT(*) FROM ledger_transactions WHERE kind = 'payment_request'")
    .pluck()
    .get();

describe('the payer page of a payment request (GET /payment/request/{id})', () => {
  it('is named by X-Sandbox-Payment-Url and shows who asks, the amount, the message, the status and the expiry', async () => {
    const { dev, id, url } = await request(RICH, '75.5');
    expect(url).toBe(`http://localhost/payment/request/${id}`);
    const page = await getPage(t, path(id));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(
      /default-src 'none'; style-src 'nonce-/,
    );
    expect(textOf(page.html, 'requester-name')).toBe(t.services.identities.userById(dev.id)!.name);
    expect(textOf(page.html, 'request-amount')).toBe('PHP 75.50');
    expect(textOf(page.html, 'request-message')).toBe('Dinner on Friday');
    expect(textOf(page.html, 'request-payer')).toBe(customer(RICH).email);
    expect(page.html).toMatch(
      /data-testid="request-status" data-status="pending">Awaiting your answer</,
    );
    const expires = new Date(t.services.clock.now() / 1000 + 365 * 86_400_000)
      .toISOString()
      .slice(0, 16)
      .replace('T', ' ');
    expect(textOf(page.html, 'request-expiry')).toBe(`${expires} UTC`);
    expect(testIds(page.html)).toContain('login-submit');
    expect(testIds(page.html)).not.toContain('request-pay');
    expect(textOf(page.html, 'answer-heading')).toBe('Answer with your peso wallet');
    // the legacy alias names the same page
    const legacy = await t.signed('POST', '/api/v3/payment-requests/', {
      ...as(dev),
      body: { payer_contact_info: customer(RICH).email, receiving_account: dev.php, amount: 1 },
    });
    expect(legacy.headers.get('x-sandbox-payment-url')).toBe(
      `http://localhost/payment/request/${legacy.body['payment-request'].id}`,
    );
  });

  it('is where the document says (x-hosted-request-page), and the 201 documents its header', async () => {
    const doc = parseYamlDocument(readFileSync(specPath(), 'utf8')) as any;
    const page = doc['x-hosted-request-page'] as {
      path: string;
      method: string;
      security: unknown[];
    };
    expect(page).toMatchObject({
      path: '/payment/request/{payment_request_id}',
      method: 'get',
      security: [],
    });
    const created = doc.paths['/v3/payment-requests/'].post.responses['201'];
    expect(Object.keys(created.headers)).toEqual(['X-Sandbox-Payment-Url']);
    const { id, url } = await request();
    expect(url).toBe(
      `${t.services.config.publicUrl}${page.path.replace('{payment_request_id}', id)}`,
    );
    const res = await getPage(t, page.path.replace('{payment_request_id}', id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('is linked from the QA dashboard, with the status the payer gave it', async () => {
    const { id, url } = await request(RICH, '75');
    const cookie = await login(id, RICH);
    await postForm(t, `${path(id)}/decline`, {}, cookie);
    const dashboard = (await t.request('GET', '/_sandbox/', { operationId: false })).text;
    const row = dashboard.slice(
      dashboard.indexOf(`data-payment-request-id="${id}"`),
      dashboard.indexOf('</tr>', dashboard.indexOf(`data-payment-request-id="${id}"`)),
    );
    expect(row).toContain(`<a href="${url}" data-testid="payment-request-page-link">`);
    expect(row).toContain('data-testid="payment-request-status">declined<');
    expect(row).toContain(customer(RICH).email);
  });

  it('names the wallet of the request currency: a BTC request is answered from the BTC wallet', async () => {
    const s = t.services;
    const btc = s.unitOfWork(() => {
      const account = s.ledger.createAccount({
        ownerType: 'user',
        ownerId: customer(RICH).id,
        name: 'BTC Wallet',
        currency: 'BTC',
      });
      fund(s, account, parseAmount('0.5'));
      return account;
    });
    const dev = newDeveloper(t, { php: '0' });
    const res = await t.signed('POST', '/v3/payment-requests/', {
      ...as(dev),
      body: {
        payer_contact_info: customer(RICH).email,
        receiving_account: dev.btc,
        amount: '0.001',
      },
    });
    expect(res.status).toBe(201);
    const id = res.body['payment-request'].id as string;
    const page = await getPage(t, path(id));
    expect(textOf(page.html, 'answer-heading')).toBe('Answer with your BTC wallet');
    expect(page.html).not.toMatch(/peso/i);
    expect(textOf(page.html, 'request-amount')).toBe('BTC 0.001');
    const cookie = await login(id, RICH);
    const mine = await getPage(t, path(id), cookie);
    expect(textOf(mine.html, 'answer-heading')).toBe('Answer with your BTC wallet');
    expect(textOf(mine.html, 'wallet-balance')).toBe('BTC 0.50');
    expect((await postForm(t, `${path(id)}/pay`, {}, cookie)).status).toBe(303);
    expect(balanceOf(t, btc)).toBe(parseAmount('0.499'));
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.001'));
  });

  it('answers an unknown id with a 404 page, for reads and form posts alike', async () => {
    for (const res of [
      await getPage(t, path('f'.repeat(32))),
      await postForm(t, `${path('f'.repeat(32))}/pay`),
    ]) {
      expect(res.status).toBe(404);
      expect(testIds(res.html)).toContain('not-found');
    }
  });
});

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
