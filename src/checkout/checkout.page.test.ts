import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
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
afterEach(() => t.close());

const path = (id: string) => `/payment/invoice/${id}`;
/** The first merchant's redirect_url (the example thank-you page, a path) as the browser is sent to it. */
const redirectUrl = () => new URL(t.merchant.redirect_url!, t.sandbox.config.publicUrl).href;

describe('GET /payment/invoice/{id} (pending)', () => {
  it('is the payment_url: self-contained, accessible HTML with the summary and a live countdown', async () => {
    const inv = await createInvoice(t, { amount: '1234.5', description: 'Two coffees & a cake' });
    expect(inv.payment_url).toBe(`http://localhost${path(inv.id)}`);
    const res = await getPage(t, path(inv.id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.html).toMatch(/^<!doctype html><html lang="en">/);
    expect(res.html).toContain(
      '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
    );
    // no external assets: nothing to load but the page itself (the icon is an empty data: URL)
    expect(res.html).not.toMatch(/\ssrc=|url\(|@import/);
    expect([...res.html.matchAll(/<link [^>]*>/g)].map((m) => m[0])).toEqual([
      '<link rel="icon" href="data:,"/>',
    ]);
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(res.html).toContain(`<style nonce="${nonce}">`);
    expect(res.html).toContain(`<script nonce="${nonce}">`);
    expect(res.headers.get('cache-control')).toBe('no-store');

    expect(textOf(res.html, 'merchant-name')).toBe(t.merchant.name);
    expect(textOf(res.html, 'invoice-amount')).toBe('PHP 1,234.50');
    expect(textOf(res.html, 'invoice-description')).toBe('Two coffees &amp; a cake');
    expect(textOf(res.html, 'invoice-external-id')).toBe(inv.external_transaction_id);
    expect(res.html).toMatch(
      /data-testid="invoice-status" data-status="pending">Awaiting payment</,
    );
    expect(res.html).toMatch(/role="status" aria-live="polite"/);
    expect(textOf(res.html, 'countdown')).toMatch(/^1[45]:\d\d$/);
    expect(testIds(res.html)).toEqual(
      expect.arrayContaining([
        'pay-wallet',
        'pay-counter',
        'sandbox-pay-full',
        'sandbox-pay-part',
        'sandbox-expire',
        'countdown',
      ]),
    );
  });

  it('counts down from the sandbox clock, not the wall clock', async () => {
    const inv = await createInvoice(t);
    t.advance(600);
    const res = await getPage(t, path(inv.id));
    const seconds = Number(/data-testid="countdown" data-seconds="(\d+)"/.exec(res.html)![1]);
    expect(seconds).toBeGreaterThan(290);
    expect(seconds).toBeLessThanOrEqual(300);
    expect(textOf(res.html, 'countdown')).toMatch(/^[45]:\d\d$/);
  });

  it('offers only the invoice collectors: wallet only, one outlet, or every outlet for cash_payment', async () => {
    const walletOnly = await createInvoice(t, {
      supported_payment_collectors: ['coins_peso_wallet'],
    });
    let ids = testIds((await getPage(t, path(walletOnly.id))).html);
    expect(ids).toContain('pay-wallet');
    expect(ids).not.toContain('pay-counter');
    expect(ids).toContain('login-email'); // the only method opens directly

    const seven = await createInvoice(t, {
      supported_payment_collectors: ['seven_connect_deposit'],
    });
    const sevenPage = (await getPage(t, path(seven.id))).html;
    ids = testIds(sevenPage);
    expect(ids).not.toContain('pay-wallet');
    expect(ids.filter((i) => i === 'outlet-option')).toHaveLength(1);
    expect(sevenPage).toContain('data-outlet="7-Eleven"');

    // cash_payment stands for the four documented outlets; Palawan (older lists only) needs its own collector.
    const cash = await createInvoice(t, { supported_payment_collectors: ['cash_payment'] });
    const cashPage = (await getPage(t, `${path(cash.id)}?method=counter`)).html;
    expect([...cashPage.matchAll(/data-outlet="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '7-Eleven',
      'M Lhuillier',
      'Cebuana Lhuillier',
      'Bayad Center',
    ]);
    const cashAndPalawan = await createInvoice(t, {
      supported_payment_collectors: ['cash_payment', 'palawan_deposit'],
    });
    const allPage = (await getPage(t, `${path(cashAndPalawan.id)}?method=counter`)).html;
    expect(testIds(allPage).filter((i) => i === 'outlet-option')).toHaveLength(
      t.fixtures.payin_outlets.length,
    );

    const both = await createInvoice(t, {
      supported_payment_collectors: ['coins_peso_wallet', 'mlhuillier_deposit', 'bayad_deposit'],
    });
    const bothPage = (await getPage(t, `${path(both.id)}?method=counter`)).html;
    expect([...bothPage.matchAll(/data-outlet="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'M Lhuillier',
      'Bayad Center',
    ]);
    expect(bothPage).toMatch(/aria-current="page" data-testid="pay-counter"/);
  });

  it('answers an unknown invoice with an HTML 404 page, on GET and on every form post', async () => {
    const res = await getPage(t, path('0123456789abcdef0123456789abcdef'));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(textOf(res.html, 'not-found')).toBe('Invoice not found');
    for (const action of [
      'wallet/login',
      'wallet/confirm',
      'wallet/logout',
      'counter',
      'sandbox',
    ]) {
      const post = await postForm(t, `${path('nope')}/${action}`, { outcome: 'full' });
      expect(post.status, action).toBe(404);
      expect(post.html).toContain('data-testid="not-found"');
    }
    const status = await t.sandbox.app.request(`http://localhost${path('nope')}/status`);
    expect(status.status).toBe(404);
  });

  it('serves the status the page polls', async () => {
    const inv = await createInvoice(t, { amount: 20 });
    const res = await t.sandbox.app.request(`http://localhost${path(inv.id)}/status`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({
      id: inv.id,
      status: 'pending',
      amount: '20.00000000',
      amount_due: '20.00000000',
      amount_received: '0.00000000',
    });
  });
});

describe('paid, expired and canceled invoices', () => {
  const noOptions = (html: string) => {
    const ids = testIds(html);
    for (const id of [
      'pay-wallet',
      'pay-counter',
      'login-email',
      'outlet-option',
      'confirm-payment',
      'sandbox-pay-full',
      'countdown',
    ]) {
      expect(ids, id).not.toContain(id);
    }
  };

  it('a paid invoice opened later shows its state and a link to redirect_url?invoice_id=, with no timer', async () => {
    const inv = await createInvoice(t);
    t.services.payments.payFromWallet(inv.id, t.services.payments.customer());
    const res = await getPage(t, path(inv.id));
    expect(res.status).toBe(200);
    expect(res.html).toMatch(/data-testid="invoice-status" data-status="fully_paid">Paid</);
    noOptions(res.html);
    const target = `${redirectUrl()}?invoice_id=${inv.id}`;
    // opened later: the state and a link back, never a timed refresh
    expect(res.html).not.toContain('http-equiv="refresh"');
    expect(res.html).toContain(
      `href="${target}" class="button" data-testid="merchant-redirect">Return to ${t.merchant.name}</a>`,
    );
    expect(res.html).toContain(`<title>Payment received — ${t.merchant.name}, PHP 20.00</title>`);
    expect(res.html).toMatch(/<h2 id="state-heading" tabindex="-1" data-outcome="">/);
    expect(res.html).not.toContain('data-poll');
  });

  it('an expired invoice (sandbox clock past expires_at) shows its state and the link too', async () => {
    const inv = await createInvoice(t);
    t.advance(901);
    const res = await getPage(t, path(inv.id));
    expect(res.html).toMatch(/data-status="expired">Expired</);
    noOptions(res.html);
    expect(res.html).not.toContain('http-equiv="refresh"');
    expect(res.html).toContain(`href="${redirectUrl()}?invoice_id=${inv.id}"`);
    expect(res.html).toContain(`<title>Expired — ${t.merchant.name}, PHP 20.00</title>`);
  });

  it('a canceled invoice shows its state and stays put', async () => {
    const inv = await createInvoice(t);
    t.services.payments.cancel(inv.id);
    const res = await getPage(t, path(inv.id));
    expect(res.html).toMatch(/data-status="canceled">Canceled</);
    noOptions(res.html);
    expect(res.html).not.toContain('merchant-redirect');
    expect(res.html).toContain(`<title>Canceled — ${t.merchant.name}, PHP 20.00</title>`);
  });

  it('keeps the merchant query string, and never follows a non-http redirect_url', async () => {
    const inv = await createInvoice(t);
    t.services.payments.expire(inv.id);
    t.services.identities.updateMerchant(t.merchant.id, {
      redirect_url: 'https://shop.example/done?from=pay',
    });
    expect((await getPage(t, path(inv.id))).html).toContain(
      `href="https://shop.example/done?from=pay&amp;invoice_id=${inv.id}"`,
    );
    for (const bad of ['javascript:alert(1)', 'not a url', null]) {
      t.services.identities.updateMerchant(t.merchant.id, { redirect_url: bad });
      const html = (await getPage(t, path(inv.id))).html;
      expect(html).not.toContain('merchant-redirect');
    }
  });
});

describe('phone-first and accessible', () => {
  it('partly paid leads with the amount still due, under its own badge', async () => {
    const inv = await createInvoice(t, { amount: 40 });
    await postForm(t, `${path(inv.id)}/sandbox`, { outcome: 'part' });
    const html = (await getPage(t, path(inv.id))).html;
    const lead = html.indexOf('data-testid="invoice-amount-due"');
    expect(lead).toBeGreaterThan(0);
    expect(lead).toBeLessThan(html.indexOf('data-testid="invoice-amount"'));
    expect(html).toMatch(
      /class="status status-partly" data-testid="invoice-status" data-status="pending">Partly paid</,
    );
    expect(html).toMatch(
      new RegExp(
        `<title>Reference number [\\d ]+ \\(PHP 20.00 still due\\) — ${t.merchant.name}, PHP 40.00</title>`,
      ),
    );
    expect([...html.matchAll(/data-outcome=""/g)]).toHaveLength(1);
    expect(html).toMatch(/id="amount-due" tabindex="-1" data-outcome=""/);
  });

  it('gives each state its own title and marks one outcome to focus', async () => {
    const inv = await createInvoice(t);
    const title = (html: string) => /<title>([^<]*)</.exec(html)![1]!;
    const outcomes = (html: string) => [...html.matchAll(/data-outcome=""/g)].length;
    const first = (await getPage(t, path(inv.id))).html;
    const wallet = (await getPage(t, `${path(inv.id)}?method=wallet`)).html;
    const failed = (
      await postForm(t, `${path(inv.id)}/wallet/login`, { login: 'x', password: 'y' })
    ).html;
    const counter = (await getPage(t, `${path(inv.id)}?method=counter`)).html;
    const seven = t.fixtures.payin_outlets.find((o) => o.name === '7-Eleven')!;
    const ticket = (
      await getPage(
        t,
        (await postForm(t, `${path(inv.id)}/counter`, { outlet: seven.id })).headers.get(
          'location',
        )!,
      )
    ).html;
    const titles = [first, wallet, failed, counter, ticket].map(title);
    expect(titles.map((x) => x.split(' — ')[0])).toEqual([
      'Choose how to pay',
      'Wallet login',
      'Login failed',
      'Choose an outlet',
      expect.stringMatching(/^Reference number \d{4} \d{4} \d{5}$/),
    ]);
    expect(titles.every((x) => x.endsWith(` — ${t.merchant.name}, PHP 20.00`))).toBe(true);
    expect([first, wallet, failed, counter, ticket].map(outcomes)).toEqual([0, 0, 1, 0, 1]);
    expect(failed).toMatch(
      /<div class="notice" role="alert" id="notice" tabindex="-1" data-outcome="" data-testid="login-error">/,
    );
    // the method tabs scroll the chosen section into view
    expect(first).toContain(`href="${path(inv.id)}?method=wallet#pay"`);
  });

  it('lets the reader size the text and does not force the email keyboard on a mobile number', async () => {
    const inv = await createInvoice(t);
    const res = await getPage(t, `${path(inv.id)}?method=wallet`);
    const html = res.html;
    // a form post may end on the merchant's page (payment complete): the CSP lets that one origin in
    expect(res.headers.get('content-security-policy')).toContain(
      `form-action 'self' ${new URL(redirectUrl()).origin};`,
    );
    expect(html).toContain('html{font:100%/1.5 ');
    expect(html).not.toMatch(/html\{[^}]*\d+px/);
    expect(html).toMatch(/<input id="login" name="login" type="text" autocomplete="username"/);
    expect(html).not.toContain('inputmode');
    // nothing navigates on a timer; the pending page knows where to go once its poll sees payment
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain(`data-return="${redirectUrl()}?invoice_id=${inv.id}"`);
  });

  it('after a payment that completes the invoice, goes back to the page when the merchant has no redirect_url', async () => {
    const inv = await createInvoice(t);
    t.services.identities.updateMerchant(t.merchant.id, { redirect_url: null });
    const res = await postForm(t, `${path(inv.id)}/sandbox`, { outcome: 'full' });
    expect(res.headers.get('location')).toBe(path(inv.id));
    const html = (await getPage(t, path(inv.id))).html;
    expect(html).toContain('Payment received. Thank you!');
    expect(html).not.toContain('data-return');
  });
});
