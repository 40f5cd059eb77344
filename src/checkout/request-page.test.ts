import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fund } from '../fixtures/load.js';
import { parseYamlDocument, specPath } from '../spec/load.js';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { parseAmount } from '../shared/money.js';
import type { TestApp } from '../testing/test-app.js';
import { balanceOf, getPage, postForm, testIds, textOf } from '../testing/checkout.test-support.js';
import { path, RICH, requestPagePerTest } from './request-page.test-support.js';

/**
 * The payer page of a payment request: what it shows, where it is linked and documented. Paying and
 * declining on it are in request-page-payments.test.ts.
 */
let t: TestApp;
const { customer, request, login } = requestPagePerTest((app) => (t = app));

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
