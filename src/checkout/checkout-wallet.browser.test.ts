import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { assertLedgerInvariants } from '../ledger/invariants.js';
import {
  saveScreenshot,
  text,
  withBrowserAndHarness,
  type Harness,
} from './checkout.browser.test-support.js';

let browser: Browser;
let h: Harness;
withBrowserAndHarness((b, harness) => ([browser, h] = [b, harness]));

const balance = (accountId: string) => h.sandbox.modules.ledger.api.get(accountId)!.balance;

describe('hosted page in Chromium: wallet', () => {
  it('pays from payment_url with fixture credentials and lands on the merchant redirect_url', async () => {
    const inv = await h.createInvoice({ amount: '125.5', description: 'Order 7781' });
    const customer = h.sandbox.fixtures.customers[0]!;
    const wallet = customer.accounts[0]!.id;
    const before = { customer: balance(wallet), merchant: balance(h.merchant.wallet_account_id) };
    const { context, page, errors } = await h.open(browser);
    try {
      await page.goto(inv.payment_url);
      expect(await page.title()).toContain(h.merchant.name);
      expect(await text(page, 'invoice-amount')).toBe('PHP 125.50');
      expect(await page.getByTestId('invoice-status').getAttribute('data-status')).toBe('pending');
      await page.getByTestId('pay-wallet').click();
      // fields are found by their labels: the form is labelled for assistive technology
      await page.getByLabel('Email or mobile number').fill(customer.email);
      await page.getByLabel('Password').fill(customer.password);
      await page.getByTestId('login-submit').click();
      expect(await text(page, 'wallet-balance')).toBe('PHP 50,000.00');
      await page.getByTestId('confirm-payment').click();
      await page.waitForURL(`${h.thankYouUrl}?invoice_id=${inv.id}`);
      expect(await text(page, 'merchant-thank-you')).toBe('Thank you');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
    expect(balance(wallet)).toBe(before.customer - 12_550_000_000n);
    expect(balance(h.merchant.wallet_account_id)).toBe(before.merchant + 12_550_000_000n);
    expect(h.sandbox.modules.invoices.repo.byId(inv.id)!.status).toBe('fully_paid');
    assertLedgerInvariants(h.sandbox.services.db);
  });

  it('shows a wrong-password message, then insufficient balance, on the page', async () => {
    const inv = await h.createInvoice({ amount: 100 });
    const poor = h.sandbox.fixtures.customers.find((c) => Number(c.accounts[0]!.balance) < 100)!;
    const { context, page } = await h.open(browser);
    try {
      await page.goto(`${inv.payment_url}?method=wallet`);
      await page.getByTestId('login-email').fill(poor.mobile_number);
      await page.getByTestId('login-password').fill('not-the-password');
      await page.getByTestId('login-submit').click();
      expect(await text(page, 'login-error')).toMatch(/password is not right/);
      expect(await page.getByTestId('login-email').inputValue()).toBe(poor.mobile_number);

      await page.getByTestId('login-password').fill(poor.password);
      await page.getByTestId('login-submit').click();
      expect(await text(page, 'insufficient-balance')).toMatch(/Insufficient balance/);
      expect(await text(page, 'wallet-balance')).toBe('PHP 25.00');
      expect(await page.getByTestId('confirm-payment').count()).toBe(0);
      expect(await page.getByTestId('invoice-status').getAttribute('data-status')).toBe('pending');
    } finally {
      await context.close();
    }
    assertLedgerInvariants(h.sandbox.services.db);
  });

  it('fits a phone screen (390×844): no sideways scroll, large tap targets, visible focus; screenshot kept', async () => {
    const inv = await h.createInvoice({
      amount: '1999.99',
      description: 'A long description that has to wrap on a small phone screen',
    });
    const { context, page, errors } = await h.open(browser, { phone: true });
    try {
      await page.goto(`${inv.payment_url}?method=wallet`);
      const fits = await page.evaluate(
        () => document.documentElement.scrollWidth <= window.innerWidth,
      );
      expect(fits).toBe(true);
      for (const id of ['pay-wallet', 'pay-counter', 'login-submit', 'sandbox-pay-full']) {
        const box = await page.getByTestId(id).boundingBox();
        expect(box!.height, id).toBeGreaterThanOrEqual(44);
      }
      await page.getByTestId('login-email').focus();
      const outline = await page
        .getByTestId('login-email')
        .evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(outline).toBe('solid');
      // the countdown runs in the page (a second or two goes by, then the text changes)
      const first = await text(page, 'countdown');
      await page.waitForFunction(
        (t) => document.getElementById('countdown')?.textContent !== t,
        first,
      );
      await saveScreenshot(page, 'hosted-page-phone-wallet.png');

      await page.getByTestId('pay-counter').click();
      await page.getByTestId('outlet-option').first().click();
      await page.getByTestId('barcode').waitFor();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await saveScreenshot(page, 'hosted-page-phone-counter.png');
      expect(errors).toEqual([]); // the inline style and script ran under the page's CSP
    } finally {
      await context.close();
    }
  });
});
