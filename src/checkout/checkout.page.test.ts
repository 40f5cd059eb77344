import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import {
  createInvoice,
  getPage,
  postForm,
  testIds,
  textOf,
} from '../testing/checkout.test-support.js';
import { path } from './checkout.page.test-support.js';

/**
 * The hosted page of a pending invoice (GET /payment/invoice/{id}): what it shows, its countdown, the
 * collectors it offers, its 404 and the status it polls. Paid, expired and canceled invoices, and the
 * page on a phone, are in checkout.page-states.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));

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
