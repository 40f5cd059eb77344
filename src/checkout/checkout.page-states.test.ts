import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { createInvoice, getPage, postForm, testIds } from '../testing/checkout.test-support.js';
import { path } from './checkout.page.test-support.js';

/**
 * The hosted invoice page once the invoice is paid, expired or canceled (its state, the way back to the
 * merchant), and phone-first and accessible in every state. The pending page is in
 * checkout.page.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));

/** The first merchant's redirect_url (the example thank-you page, a path) as the browser is sent to it. */
const redirectUrl = () => new URL(t.merchant.redirect_url!, t.sandbox.config.publicUrl).href;

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
