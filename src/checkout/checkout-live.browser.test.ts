import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  text,
  waitForStatus,
  withBrowserAndHarness,
  type Harness,
} from './checkout.browser.test-support.js';

// These run under the page's own CSP (no bypass): `errors` would show a blocked script.
let browser: Browser;
let h: Harness;
withBrowserAndHarness((b, harness) => ([browser, h] = [b, harness]));

const announced = (page: import('playwright-core').Page, pattern: string) =>
  page.waitForFunction(
    (p) => new RegExp(p).test(document.getElementById('announce')?.textContent ?? ''),
    pattern,
  );

describe('hosted page in Chromium: what changes without a reload', () => {
  it('a part payment arriving while the customer types updates the summary in place and keeps the form', async () => {
    const inv = await h.createInvoice({ amount: 40 });
    const { context, page, errors } = await h.open(browser, {
      viewport: { width: 320, height: 640 },
    });
    try {
      await page.goto(`${inv.payment_url}?method=wallet`);
      await page.getByTestId('login-email').fill('half typed');
      await page.evaluate(() => ((window as any).sameDocument = true));
      // an outlet takes half the amount (the counter reference is issued first, as a customer would)
      const { reference_number } = h.sandbox.modules.payments.api.issueReference(
        inv.id,
        'cash_payment',
      );
      expect(
        (await h.control('/_sandbox/otc/payments', { reference_number, amount: 20 })).status,
      ).toBe(201);
      await waitForStatus(page, 'pending', 'Partly paid');
      expect(await text(page, 'invoice-amount-due')).toBe('PHP 20.00');
      await announced(
        page,
        'A payment arrived\\. PHP 20\\.00 still due\\. What you typed is kept\\.',
      );
      expect(await page.evaluate(() => (window as any).sameDocument)).toBe(true);
      expect(await page.getByTestId('login-email').inputValue()).toBe('half typed');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the copy button puts the reference digits on the clipboard and says so', async () => {
    const inv = await h.createInvoice();
    const { context, page, errors } = await h.open(browser, {
      viewport: { width: 320, height: 640 },
    });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
      await page.goto(`${inv.payment_url}?method=counter`);
      await page.getByTestId('outlet-option').first().click();
      const ref = (await page.getByTestId('reference-number').getAttribute('data-reference'))!;
      // the reference is the outcome of choosing an outlet: focused, on the first screen
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
        'reference-number',
      );
      await page.getByTestId('copy-reference').click();
      await announced(page, `Reference number ${ref.split('').join(' ')} copied`);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ref);
      expect(await text(page, 'copy-reference')).toBe('Copied');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the countdown is silent except for saying less than 5 minutes, then less than 1 minute, are left', async () => {
    const calm = await h.createInvoice();
    const inv = await h.createInvoice({ expires_at: '200s' });
    const { context, page, errors } = await h.open(browser);
    try {
      // 15 minutes left: the countdown ticks and nothing is said
      await page.goto(calm.payment_url);
      const first = await text(page, 'countdown');
      await page.waitForFunction(
        (t) => document.getElementById('countdown')?.textContent !== t,
        first,
      );
      expect(await text(page, 'announce')).toBe('');

      await page.goto(inv.payment_url);
      expect(await page.getByTestId('countdown').getAttribute('role')).toBe('timer');
      await announced(page, '^Less than 5 minutes left to pay this invoice\\.$');
      // moving the sandbox clock moves the countdown (the poll brings the new figure)
      expect((await h.control('/_sandbox/clock/advance', { seconds: 150 })).status).toBe(200);
      await announced(page, '^Less than 1 minute left to pay this invoice\\.$');
      expect(await page.getByTestId('invoice-status').getAttribute('data-status')).toBe('pending');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
