import bwipjs from 'bwip-js';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { assertLedgerInvariants } from '../ledger/invariants.js';
import {
  text,
  waitForStatus,
  withBrowserAndHarness,
  type Harness,
} from './checkout.browser.test-support.js';
import { barWidths, decodeCode128 } from './code128.test-support.js';

let browser: Browser;
let h: Harness;
withBrowserAndHarness((b, harness) => ([browser, h] = [b, harness]));

const OPTIONS = [
  'pay-wallet',
  'pay-counter',
  'login-email',
  'outlet-option',
  'confirm-payment',
  'sandbox-pay-full',
  'countdown',
];

describe('hosted page in Chromium: over the counter, states, outcome chooser', () => {
  it('issues a reference with a barcode that encodes it; an outlet confirms; the page follows and redirects', async () => {
    const inv = await h.createInvoice({ amount: 75 });
    const { context, page, errors } = await h.open(browser);
    try {
      await page.goto(inv.payment_url);
      await page.getByTestId('pay-counter').click();
      await page.locator('[data-testid="outlet-option"][data-outlet="Bayad Center"]').click();
      // shown in groups to read out; the digits themselves are in data-reference (and on the copy button)
      const ref = (await page.getByTestId('reference-number').getAttribute('data-reference'))!;
      expect(ref).toMatch(/^\d{13}$/);
      expect(await text(page, 'reference-number')).toBe(
        `${ref.slice(0, 4)} ${ref.slice(4, 8)} ${ref.slice(8)}`,
      );
      expect(ref).toBe(
        h.sandbox.modules.invoices.repo.byId(inv.id)!.current_payment_reference_number,
      );
      const instructions = h.sandbox.fixtures.payin_outlets.find(
        (o) => o.name === 'Bayad Center',
      )!.instructions;
      expect(await text(page, 'outlet-instructions')).toContain(instructions);

      // the SVG in the page, decoded from its bars, is the reference number, bar for bar what bwip-js encodes
      const svg = await page.getByTestId('barcode').evaluate((el) => el.outerHTML);
      const widths = barWidths(svg);
      expect(decodeCode128(widths)).toBe(ref);
      expect(widths).toEqual((bwipjs.raw('code128', ref) as Array<{ sbs: number[] }>)[0]!.sbs);

      const confirm = await h.control('/_sandbox/otc/payments', { reference_number: ref });
      expect(confirm.status).toBe(201);
      // no click: the page polls its status and goes back to the merchant as soon as it sees the payment
      await page.waitForURL(`${h.thankYouUrl}?invoice_id=${inv.id}`);
      expect(errors).toEqual([]); // polling ran under the page's CSP
    } finally {
      await context.close();
    }
    assertLedgerInvariants(h.sandbox.services.db);
  });

  it('an expired invoice shows its state and no payment options; with a redirect_url a link (no timer) leads back', async () => {
    const inv = await h.createInvoice();
    expect((await h.control('/_sandbox/clock/advance', { seconds: 901 })).status).toBe(200);
    const { context, page } = await h.open(browser);
    try {
      h.sandbox.modules.identities.api.updateMerchant(h.merchant.id, { redirect_url: null });
      await page.goto(inv.payment_url);
      expect(await page.getByTestId('invoice-status').getAttribute('data-status')).toBe('expired');
      expect(await text(page, 'invoice-status')).toBe('Expired');
      for (const id of OPTIONS) expect(await page.getByTestId(id).count(), id).toBe(0);

      h.sandbox.modules.identities.api.updateMerchant(h.merchant.id, {
        redirect_url: h.thankYouUrl,
      });
      await page.reload();
      expect(await page.title()).toBe(`Expired — ${h.merchant.name}, PHP 20.00`);
      expect(await page.locator('meta[http-equiv]').count()).toBe(0);
      await page.getByRole('link', { name: `Return to ${h.merchant.name}` }).click();
      await page.waitForURL(`${h.thankYouUrl}?invoice_id=${inv.id}`);
    } finally {
      h.sandbox.modules.identities.api.updateMerchant(h.merchant.id, {
        redirect_url: h.thankYouUrl,
      });
      await context.close();
    }
  });

  it('a page left open while the invoice runs out moves to expired by itself and goes back to the merchant', async () => {
    const inv = await h.createInvoice({ expires_at: '4s' });
    const { context, page } = await h.open(browser);
    try {
      await page.goto(inv.payment_url);
      expect(await page.getByTestId('invoice-status').getAttribute('data-status')).toBe('pending');
      await page.waitForURL(`${h.thankYouUrl}?invoice_id=${inv.id}`);
    } finally {
      await context.close();
    }
    expect(h.sandbox.modules.invoices.repo.byId(inv.id)!.status).toBe('expired');
  });

  it('the outcome chooser pays part, then in full, with no credentials', async () => {
    const inv = await h.createInvoice({ amount: 40 });
    const { context, page } = await h.open(browser);
    try {
      await page.goto(inv.payment_url);
      await page.getByTestId('sandbox-pay-part').click();
      await waitForStatus(page, 'pending', 'Partly paid');
      expect(await text(page, 'invoice-amount-received')).toBe('PHP 20.00');
      expect(await text(page, 'invoice-amount-due')).toBe('PHP 20.00');
      await page.getByTestId('sandbox-pay-full').click();
      await page.waitForURL(`${h.thankYouUrl}?invoice_id=${inv.id}`);
    } finally {
      await context.close();
    }
    assertLedgerInvariants(h.sandbox.services.db);
  });

  it('the outcome chooser lets an invoice expire', async () => {
    const inv = await h.createInvoice();
    const { context, page } = await h.open(browser);
    try {
      await page.goto(inv.payment_url);
      await page.getByTestId('sandbox-expire').click();
      await page.waitForURL(`${h.thankYouUrl}?invoice_id=${inv.id}`);
    } finally {
      await context.close();
    }
    expect(h.sandbox.modules.invoices.repo.byId(inv.id)!.status).toBe('expired');
  });
});
