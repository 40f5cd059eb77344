import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from '../testing/axe.js';
import {
  ARTIFACTS_DIR,
  text,
  waitForStatus,
  withBrowserAndHarness,
  type Harness,
} from './checkout.browser.test-support.js';

let browser: Browser;
let h: Harness;
withBrowserAndHarness((b, harness) => ([browser, h] = [b, harness]));

const VIEWPORTS = [
  { width: 320, height: 640 },
  { width: 390, height: 844 },
];

/** The element the last action produced is focused, and on the first screen. */
async function outcomeShown(
  page: Page,
  selector: string,
): Promise<{ focused: boolean; onScreen: boolean }> {
  await page.waitForFunction((s) => document.activeElement === document.querySelector(s), selector);
  return page.evaluate((s) => {
    const el = document.querySelector(s)!;
    const r = el.getBoundingClientRect();
    return {
      focused: document.activeElement === el,
      onScreen: r.top >= 0 && r.bottom <= window.innerHeight,
    };
  }, selector);
}

/** The top of an element (a section just opened) is on the first screen. */
const topOnScreen = (page: Page, selector: string) =>
  page.evaluate((s) => {
    const top = document.querySelector(s)!.getBoundingClientRect().top;
    return top > -1 && top < window.innerHeight ? true : top;
  }, selector);

/**
 * The states of the hosted page, a few per test (each test its own browser context on the file's one
 * Chromium): an axe run takes seconds on a busy machine, so no test holds all twelve. Each state is
 * checked for axe violations, sideways scroll and its title; the last test of a size checks that the
 * titles of all of them differ.
 */
for (const viewport of VIEWPORTS) {
  const size = `${viewport.width}x${viewport.height}`;
  describe(`hosted page in Chromium at ${size}: every state passes axe (WCAG 2.1 A/AA), no sideways scroll, the outcome focused on screen`, () => {
    const titles = new Map<string, string>();
    const rich = () => h.sandbox.fixtures.customers[0]!;
    const poor = () =>
      h.sandbox.fixtures.customers.find((c) => Number(c.accounts[0]!.balance) < 100)!;
    const invoice = () =>
      h.createInvoice({
        amount: 100,
        description: 'Order 7781: two large coffees and a slice of ube cake',
      });

    /** A page of its own (bypassCSP lets the test add axe-core; the page's own script still runs under its nonce). */
    async function withPage(
      run: (
        page: Page,
        check: (state: string, opts?: { shot?: boolean }) => Promise<string>,
      ) => Promise<void>,
    ) {
      const { context, page, errors } = await h.open(browser, { viewport, bypassCSP: true });
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const check = async (state: string, opts: { shot?: boolean } = {}) => {
        await page.waitForLoadState();
        expect(formatViolations(await axeViolations(page)), state).toBe('');
        const fits = await page.evaluate(
          () => document.scrollingElement!.scrollWidth <= window.innerWidth,
        );
        expect(fits, `${state}: no horizontal overflow`).toBe(true);
        const title = await page.title();
        titles.set(state, title);
        if (opts.shot && viewport.width === 320)
          await page.screenshot({
            path: join(ARTIFACTS_DIR, `a11y-${size}-${state.replace(/\W+/g, '-')}.png`),
          });
        return title;
      };
      try {
        await run(page, check);
        // the 401/404/409 answers of failed actions are logged by Chromium; anything else (a CSP block) is not expected
        expect(
          errors.filter(
            (e) =>
              !/^Failed to load resource: the server responded with a status of 40[149]/.test(e),
          ),
        ).toEqual([]);
      } finally {
        await context.close();
      }
    }

    it('pending, the wallet login, a failed login, logged in', () =>
      withPage(async (page, check) => {
        const a = await invoice();
        await page.goto(a.payment_url);
        await check('pending', { shot: true });

        await page.getByTestId('pay-wallet').click();
        await page.waitForURL(/method=wallet#pay$/);
        expect(await topOnScreen(page, '#pay'), 'wallet section opened in view').toBe(true);
        await check('wallet login');

        await page.getByLabel('Email or mobile number').fill(rich().email);
        await page.getByLabel('Password').fill('not-the-password');
        await page.getByTestId('login-submit').click();
        await page.getByTestId('login-error').waitFor();
        expect(await outcomeShown(page, '[data-testid="login-error"]')).toEqual({
          focused: true,
          onScreen: true,
        });
        await check('login failed', { shot: true });

        await page.getByLabel('Password').fill(rich().password);
        await page.getByTestId('login-submit').click();
        await page.getByTestId('confirm-payment').waitFor();
        expect(await outcomeShown(page, '[data-testid="confirm-payment"]')).toEqual({
          focused: true,
          onScreen: true,
        });
        await check('logged in', { shot: true });
      }));

    it('the login again after a logout (same title as the first), an insufficient balance', () =>
      withPage(async (page, check) => {
        const a = await invoice();
        await page.goto(a.payment_url);
        await page.getByTestId('pay-wallet').click();
        await page.getByTestId('login-submit').waitFor();
        const loginTitle = await page.title();
        await page.getByLabel('Email or mobile number').fill(rich().email);
        await page.getByLabel('Password').fill(rich().password);
        await page.getByTestId('login-submit').click();
        await page.getByTestId('confirm-payment').waitFor();

        await page.getByTestId('wallet-logout').click();
        await page.getByTestId('login-submit').waitFor();
        expect(await check('wallet login again'), 'a login page has the same title each time').toBe(
          loginTitle,
        );
        await page.getByLabel('Email or mobile number').fill(poor().mobile_number);
        await page.getByLabel('Password').fill(poor().password);
        await page.getByTestId('login-submit').click();
        await page.getByTestId('insufficient-balance').waitFor();
        expect(await outcomeShown(page, '[data-testid="insufficient-balance"]')).toEqual({
          focused: true,
          onScreen: true,
        });
        expect(await text(page, 'shortfall')).toBe('PHP 75.00');
        await check('insufficient balance', { shot: true });

        await page.getByTestId('pay-counter-instead').click();
        await page.waitForURL(/method=counter#pay$/);
        expect(await topOnScreen(page, '#pay'), 'counter section opened in view').toBe(true);
      }));

    it('the counter outlets, a reference number and its barcode', () =>
      withPage(async (page, check) => {
        const a = await invoice();
        await page.goto(a.payment_url);
        await page.getByTestId('pay-counter').click();
        await page.waitForURL(/method=counter#pay$/);
        expect(await topOnScreen(page, '#pay'), 'counter section opened in view').toBe(true);
        await check('counter outlets');

        await page.getByTestId('outlet-option').first().click();
        await page.getByTestId('barcode').waitFor();
        expect(await outcomeShown(page, '[data-testid="reference-number"]')).toEqual({
          focused: true,
          onScreen: true,
        });
        await check('reference and barcode', { shot: true });
      }));

    it('partly paid, then paid (back to the merchant; the paid page opened later has a link, no timer)', () =>
      withPage(async (page, check) => {
        const b = await invoice();
        await page.goto(b.payment_url);
        await page.getByTestId('sandbox-pay-part').click();
        await waitForStatus(page, 'pending', 'Partly paid');
        expect(await outcomeShown(page, '#amount-due')).toEqual({ focused: true, onScreen: true });
        await check('partly paid', { shot: true });

        await page.getByTestId('sandbox-pay-full').click();
        await page.waitForURL(`${h.thankYouUrl}?invoice_id=${b.id}`);
        await page.goto(b.payment_url);
        expect(await outcomeShown(page, '#state-heading')).toEqual({
          focused: true,
          onScreen: true,
        });
        expect(await page.getByTestId('merchant-redirect').isVisible()).toBe(true);
        expect(await page.locator('meta[http-equiv]').count()).toBe(0);
        await check('paid', { shot: true });
      }));

    it('expired, canceled, not found', () =>
      withPage(async (page, check) => {
        const c = await invoice();
        await page.goto(c.payment_url);
        await page.getByTestId('sandbox-expire').click();
        await page.waitForURL(`${h.thankYouUrl}?invoice_id=${c.id}`);
        await page.goto(c.payment_url);
        await waitForStatus(page, 'expired', 'Expired');
        await check('expired');

        const d = await invoice();
        h.sandbox.modules.payments.api.cancel(d.id);
        await page.goto(d.payment_url);
        await waitForStatus(page, 'canceled', 'Canceled');
        await check('canceled');

        await page.goto(`${h.url}/payment/invoice/0123456789abcdef0123456789abcdef`);
        await page.getByTestId('not-found').waitFor();
        await check('not found');
      }));

    it("each of the twelve states has its own title (the login page again has the first one's)", () => {
      const states = [...titles.keys()];
      expect(states, 'every state above was checked').toHaveLength(13);
      const distinct = new Set(
        [...titles].filter(([state]) => state !== 'wallet login again').map(([, title]) => title),
      );
      expect(distinct.size, JSON.stringify(Object.fromEntries(titles))).toBe(12);
    });
  });
}

describe('the axe helper', () => {
  it('reports what breaks WCAG 2.1 A/AA (so a pass above means something)', async () => {
    const { context, page } = await h.open(browser, { bypassCSP: true });
    try {
      await page.setContent(
        '<html><head><title>t</title></head><body><main><img src="data:,"><button></button></main></body></html>',
      );
      const ids = (await axeViolations(page)).map((v) => v.id).sort();
      expect(ids).toEqual(expect.arrayContaining(['button-name', 'html-has-lang', 'image-alt']));
    } finally {
      await context.close();
    }
  });
});
