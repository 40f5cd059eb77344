import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signRequest } from '../auth/hmac.js';
import { assertLedgerInvariants } from '../ledger/invariants.js';
import { axeViolations, formatViolations } from '../testing/axe.js';
import {
  text,
  WAIT_MS,
  withBrowserAndHarness,
  type Harness,
} from './checkout.browser.test-support.js';

let browser: Browser;
let h: Harness;
withBrowserAndHarness((b, harness) => ([browser, h] = [b, harness]));

const balance = (accountId: string) => h.sandbox.modules.ledger.api.get(accountId)!.balance;
let nonce = BigInt(Date.now()) * 1000n;

/**
 * `POST /v3/payment-requests/` signed as the first fixture developer, over the wire; the payer page's
 * address is what a user gets: the `X-Sandbox-Payment-Url` header.
 */
async function createRequest(payer: number, amount: string, message = 'Dinner on Friday') {
  const dev = h.sandbox.fixtures.developers[0]!;
  const receiving = dev.accounts.find((a) => a.currency === 'PHP')!.id;
  const url = `${h.url}/v3/payment-requests/`;
  const body = JSON.stringify({
    payer_contact_info: h.sandbox.fixtures.customers[payer]!.email,
    receiving_account: receiving,
    amount,
    message,
  });
  const n = String((nonce += 1n));
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ACCESS_KEY: dev.app.api_key,
      ACCESS_NONCE: n,
      ACCESS_SIGNATURE: signRequest(dev.app.api_secret, n, url, body),
    },
    body,
    signal: AbortSignal.timeout(WAIT_MS),
  });
  if (res.status !== 201)
    throw new Error(`payment request create failed: ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { 'payment-request': { id: string } };
  return {
    id: created['payment-request'].id,
    pageUrl: res.headers.get('x-sandbox-payment-url')!,
    receiving,
  };
}

async function logIn(page: Page, who: { email: string; password: string }) {
  await page.getByLabel('Email or mobile number').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByTestId('login-submit').click();
}

const statusShown = (page: Page, status: string) =>
  page.locator(`[data-testid="request-status"][data-status="${status}"]`).waitFor();

/** The element the last action produced is focused and on the first screen. */
async function focusedOnScreen(page: Page, selector: string) {
  await page.waitForFunction((s) => document.activeElement === document.querySelector(s), selector);
  return page.evaluate((s) => {
    const r = document.querySelector(s)!.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  }, selector);
}

describe('payment request payer page in Chromium', () => {
  it('opens from X-Sandbox-Payment-Url, logs in with the wallet and pays: the ledger moves once', async () => {
    const rich = h.sandbox.fixtures.customers[0]!;
    const wallet = rich.accounts[0]!.id;
    const { id, pageUrl, receiving } = await createRequest(0, '125.5');
    expect(pageUrl).toBe(`${h.url}/payment/request/${id}`);
    const before = { payer: balance(wallet), receiving: balance(receiving) };
    const { context, page, errors } = await h.open(browser, { phone: true });
    try {
      await page.goto(pageUrl);
      expect(await text(page, 'request-amount')).toBe('PHP 125.50');
      expect(await text(page, 'request-message')).toBe('Dinner on Friday');
      expect(await text(page, 'requester-name')).toBe(h.sandbox.fixtures.developers[0]!.name);
      await logIn(page, rich);
      expect(await text(page, 'wallet-balance')).toBe('PHP 50,000.00');
      expect(await focusedOnScreen(page, '[data-testid="request-pay"]')).toBe(true);
      await page.getByTestId('request-pay').click();
      await statusShown(page, 'paid');
      expect(await focusedOnScreen(page, '#state-heading')).toBe(true);
      expect(await page.getByTestId('request-pay').count()).toBe(0);
      expect(errors).toEqual([]); // the inline style and script ran under the page's CSP
    } finally {
      await context.close();
    }
    expect(balance(wallet)).toBe(before.payer - 12_550_000_000n);
    expect(balance(receiving)).toBe(before.receiving + 12_550_000_000n);
    assertLedgerInvariants(h.sandbox.services.db);
  });

  it('every state passes axe (WCAG 2.1 A/AA) at 320 px with no sideways scroll and a title of its own', async () => {
    const [rich, other, poor] = h.sandbox.fixtures.customers as [any, any, any];
    const { context, page, errors } = await h.open(browser, {
      viewport: { width: 320, height: 640 },
      bypassCSP: true,
    });
    const titles = new Map<string, string>();
    async function check(state: string) {
      await page.waitForLoadState();
      expect(formatViolations(await axeViolations(page)), state).toBe('');
      expect(
        await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth),
        `${state}: no horizontal overflow`,
      ).toBe(true);
      const title = await page.title();
      expect(titles.get(title), `${state} has its own title (${title})`).toBeUndefined();
      titles.set(title, state);
    }
    try {
      const a = await createRequest(
        0,
        '40',
        'A long message that has to wrap on a small phone screen: the concert tickets for Saturday',
      );
      await page.goto(a.pageUrl);
      await check('wallet login');
      await logIn(page, { email: rich.email, password: 'not-the-password' });
      await page.getByTestId('login-error').waitFor();
      expect(await focusedOnScreen(page, '[data-testid="login-error"]')).toBe(true);
      await check('login failed');
      await logIn(page, rich);
      await page.getByTestId('request-decline').waitFor();
      await check('pay or decline');
      await page.getByTestId('request-decline').click();
      await statusShown(page, 'declined');
      await check('declined');

      const b = await createRequest(0, '40');
      await page.goto(b.pageUrl);
      await logIn(page, other);
      await page.getByTestId('wrong-payer').waitFor();
      expect(await focusedOnScreen(page, '[data-testid="wrong-payer"]')).toBe(true);
      expect(await page.getByTestId('request-pay').count()).toBe(0);
      await check('wrong payer');
      await page.getByTestId('wallet-logout').click();
      await logIn(page, rich);
      await page.getByTestId('request-pay').click();
      await statusShown(page, 'paid');
      await check('paid');

      const c = await createRequest(2, '30');
      await page.goto(c.pageUrl);
      await logIn(page, poor);
      await page.getByTestId('insufficient-balance').waitFor();
      expect(await text(page, 'shortfall')).toBe('PHP 5.00');
      await check('insufficient balance');

      const d = await createRequest(0, '10');
      expect(
        (await h.control(`/_sandbox/payment-requests/${d.id}/status`, { status: 'expired' }))
          .status,
      ).toBe(200);
      await page.goto(d.pageUrl);
      await statusShown(page, 'expired');
      await check('expired');

      await page.goto(`${h.url}/payment/request/0123456789abcdef0123456789abcdef`);
      await page.getByTestId('not-found').waitFor();
      await check('not found');
      expect(titles.size).toBe(9);
      // the 401/403/404 answers of refused actions are logged by Chromium; anything else (a CSP block) is not expected
      expect(
        errors.filter(
          (e) =>
            !/^Failed to load resource: the server responded with a status of 40[1349]/.test(e),
        ),
      ).toEqual([]);
    } finally {
      await context.close();
    }
    assertLedgerInvariants(h.sandbox.services.db);
  });
});
