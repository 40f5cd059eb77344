import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec, type Sandbox } from '../sandbox.js';
import { listen, type RunningServer } from '../server.js';

/** Test support for the browser tests (imported by *.browser.test.ts only). */

/** The Debian package's Chromium; never a browser download. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/**
 * Upper bound of every wait in a browser test (a condition: an element, a URL, a response). Generous: on
 * a busy 2-core machine a page load under Chromium can take many seconds; a passing wait returns at once.
 */
export const WAIT_MS = 45_000;
export const ARTIFACTS_DIR = join(process.cwd(), 'test-artifacts');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: WAIT_MS });
}

export interface OpenOptions {
  /** 390×844 at 2× with touch, like a current phone. */
  phone?: boolean;
  /** Any other phone-like size (touch, 2×), e.g. 320×640. */
  viewport?: { width: number; height: number };
  /** Let a test inject scripts (axe-core) into a page whose CSP allows only its own nonce. */
  bypassCSP?: boolean;
}

export interface Harness {
  sandbox: Sandbox;
  /** Where the sandbox listens, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** The first fixture merchant's redirect_url: a page served by this harness. */
  thankYouUrl: string;
  merchant: Sandbox['fixtures']['merchants'][number];
  /**
   * A new browser context (phone-sized when asked) whose waits are all bounded; `errors` collects
   * console errors and uncaught exceptions (a CSP violation shows up there).
   */
  open(
    browser: Browser,
    opts?: OpenOptions,
  ): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  /** Create an invoice through the real API with the merchant Token. */
  createInvoice(
    body?: Record<string, unknown>,
  ): Promise<{ id: string; payment_url: string; [k: string]: any }>;
  /** A control call (`/_sandbox/...`), JSON in and out. */
  control(path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

let serial = 0;

/**
 * A real sandbox on 127.0.0.1 (port 0) with an in-memory database, `publicUrl` set to where it
 * listens, and the first merchant's redirect_url pointing at a tiny local thank-you page.
 */
export async function startHarness(): Promise<Harness> {
  const merchantSite: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><title>Thank you</title><h1 data-testid="merchant-thank-you">Thank you</h1><p>${req.url?.length ?? 0}</p></html>`,
    );
  });
  await new Promise<void>((resolve) => merchantSite.listen(0, '127.0.0.1', resolve));
  const thankYouUrl = `http://127.0.0.1:${(merchantSite.address() as AddressInfo).port}/thank-you`;

  const sandbox = createSandbox({
    db: openDatabase(':memory:'),
    spec: sharedSpec(),
    config: { db: ':memory:', host: '127.0.0.1', port: 0, quiet: true },
  });
  const server: RunningServer = await listen(sandbox);
  sandbox.config.publicUrl = server.url;
  const merchant = sandbox.fixtures.merchants[0]!;
  sandbox.modules.identities.api.updateMerchant(merchant.id, { redirect_url: thankYouUrl });

  async function call(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  return {
    sandbox,
    url: server.url,
    thankYouUrl,
    merchant,
    async open(browser, opts = {}) {
      const viewport = opts.viewport ?? (opts.phone ? { width: 390, height: 844 } : undefined);
      const context = await browser.newContext({
        ...(viewport ? { viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
        bypassCSP: opts.bypassCSP ?? false,
      });
      context.setDefaultTimeout(WAIT_MS);
      context.setDefaultNavigationTimeout(WAIT_MS);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      return { context, page, errors };
    },
    async createInvoice(body = {}) {
      const res = await call(
        'POST',
        '/v1/invoices/',
        {
          amount: 20,
          currency: 'PHP',
          external_transaction_id: `browser-${++serial}-${Date.now()}`,
          ...body,
        },
        { authorization: `Token ${merchant.merchant_api_token}` },
      );
      if (res.status !== 201)
        throw new Error(`invoice create failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.invoice;
    },
    control: (path, body) => call('POST', path, body ?? {}),
    async stop() {
      await server.stop();
      await new Promise<void>((resolve) => {
        merchantSite.close(() => resolve());
        merchantSite.closeAllConnections();
      });
      await sandbox.close();
    },
  };
}

/** Save a screenshot under test-artifacts/ (gitignored; CI keeps it). */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, name);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Text of the element with this data-testid, once it is there. */
export async function text(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
}

/**
 * Wait until the page shows this invoice status (robust across the navigation a click starts: the old
 * page's status element never matches the new status).
 */
export async function waitForStatus(page: Page, status: string, label?: string): Promise<void> {
  const el = page.locator(`[data-testid="invoice-status"][data-status="${status}"]`);
  await (label ? el.filter({ hasText: label }) : el).waitFor();
}

/**
 * One Chromium and one harness for a test file: started in `beforeAll`, handed to `use`, closed in
 * `afterAll`. Every wait is bounded by the harness's WAIT_MS.
 *
 * @example
 * let browser: Browser;
 * let h: Harness;
 * withBrowserAndHarness((b, harness) => ([browser, h] = [b, harness]));
 */
export function withBrowserAndHarness(use: (browser: Browser, harness: Harness) => void): void {
  let browser: Browser | undefined;
  let harness: Harness | undefined;
  beforeAll(async () => {
    [browser, harness] = await Promise.all([launchBrowser(), startHarness()]);
    use(browser, harness);
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.stop();
  });
}
