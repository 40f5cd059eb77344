import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  saveScreenshot,
  startHarness,
  WAIT_MS,
  type Harness,
} from '../checkout/checkout.browser.test-support.js';
import { axeViolations, formatViolations } from '../testing/axe.js';
import { contrastRatio, startCallbackReceiver } from './dashboard.browser.test-support.js';

let browser: Browser;
let h: Harness;
let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;
let page: Page;
let errors: string[];

beforeAll(async () => {
  [browser, h, receiver] = await Promise.all([
    launchBrowser(),
    startHarness(),
    startCallbackReceiver(),
  ]);
  h.sandbox.modules.identities.api.updateMerchant(h.merchant.id, { callback_url: receiver.url });
  h.sandbox.startBackground(); // the callback dispatcher
  ({ page, errors } = await h.open(browser));
  page.on('response', (r) => void (r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`)));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${h.url}/_sandbox/`);
  // Set once: still there at the end only if the page was never reloaded.
  await page.evaluate(
    () => ((window as unknown as { neverReloaded: boolean }).neverReloaded = true),
  );
});

afterAll(async () => {
  await browser?.close();
  await h?.stop();
  await receiver?.stop();
});

const neverReloaded = () =>
  page.evaluate(() => (window as unknown as { neverReloaded?: boolean }).neverReloaded === true);
const deliveryRow = (invoiceId: string, event: string) =>
  page
    .locator('tr[data-testid="delivery-row"]')
    .filter({ hasText: invoiceId })
    .filter({ hasText: event });
const faultsNow = async () =>
  (await (await fetch(`${h.url}/_sandbox/faults`, { signal: AbortSignal.timeout(WAIT_MS) })).json())
    .faults;

describe('QA dashboard in Chromium', () => {
  it('shows a delivery to a local receiver with its attempt, redelivers it, and follows a payment live', async () => {
    const before = receiver.received.length;
    const inv = await h.createInvoice();
    // The invoice and its delivery appear by themselves; the receiver's answer is in the attempt.
    await page.locator(`tr[data-invoice-id="${inv.id}"]`).waitFor();
    const row = deliveryRow(inv.id, 'invoice.created');
    await row.locator('.status.delivered').waitFor();
    expect(await row.locator('td').nth(3).textContent()).toBe(receiver.url);
    await row.locator('summary').click();
    const attempt = row.getByTestId('delivery-attempt');
    expect(await attempt.getByTestId('attempt-status').textContent()).toBe('HTTP 200');
    expect(await attempt.getByTestId('attempt-response').textContent()).toBe(
      `receiver got callback #${before + 1}`,
    );
    expect(await attempt.textContent()).toContain('"name":"invoice.created"');
    expect((await attempt.textContent())!.toLowerCase()).toContain(
      'content-type: application/json',
    );
    expect(receiver.received).toHaveLength(before + 1);

    // Redeliver: the receiver gets the same event again, and the page lists the new delivery.
    const deliveryId = (await row.getAttribute('data-delivery-id'))!;
    await page
      .getByRole('button', { name: `Redeliver delivery ${deliveryId.slice(-8)} (invoice.created)` })
      .click();
    await expect.poll(() => receiver.received.length, { timeout: WAIT_MS }).toBe(before + 2);
    expect(receiver.received[before + 1]!.body).toBe(receiver.received[before]!.body);
    await page
      .locator('tr[data-testid="delivery-row"]')
      .filter({ hasText: `redelivery of …${deliveryId.slice(-8)}` })
      .locator('.status.delivered')
      .waitFor();
    // The open attempts of the first delivery stayed open through the refresh.
    expect(await page.locator(`#dlv-${deliveryId}`).getAttribute('open')).not.toBeNull();

    // A payment made elsewhere (the control API, as a test suite would) shows up without a reload.
    const paid = await h.control(`/_sandbox/invoices/${inv.id}/payments`, {
      collector: 'coins_peso_wallet',
    });
    expect(paid.status).toBe(201);
    await page.locator(`tr[data-invoice-id="${inv.id}"] .status.fully_paid`).waitFor();
    await deliveryRow(inv.id, 'invoice.fully_paid').locator('.status.delivered').waitFor();
    // The paid invoice's send button: a manual send of invoice.fully_paid reaches the receiver again.
    const sent = receiver.received.length;
    await page
      .getByRole('button', {
        name: new RegExp(`^Send invoice\\.fully_paid again: invoice .*${inv.id.slice(-8)}\\)$`),
      })
      .click();
    await expect.poll(() => receiver.received.length, { timeout: WAIT_MS }).toBe(sent + 1);
    expect(JSON.parse(receiver.received[sent]!.body).event.name).toBe('invoice.fully_paid');
    await expect
      .poll(() => deliveryRow(inv.id, 'invoice.fully_paid').count(), { timeout: WAIT_MS })
      .toBe(2);
    // An open copy-as-curl disclosure stays open while the list around it changes.
    await page.locator(`#d-curl-get-${inv.id} summary`).click();
    const other = await h.createInvoice();
    await page.locator(`tr[data-invoice-id="${other.id}"]`).waitFor();
    expect(await page.locator(`#d-curl-get-${inv.id}`).getAttribute('open')).not.toBeNull();
    expect(await page.locator(`#curl-get-${inv.id}`).textContent()).toContain(
      `/_sandbox/invoices/${inv.id}`,
    );
    // The clock follows too.
    await h.control('/_sandbox/clock/advance', { seconds: 120 });
    await page.locator('#clock-offset', { hasText: /^120$/ }).waitFor();
    await h.control('/_sandbox/clock/reset');
    expect(await neverReloaded()).toBe(true);
  });

  it('leaves a field being typed in alone, then refreshes the list around what was typed', async () => {
    const typed = await h.createInvoice();
    const part = page.getByRole('textbox', {
      name: `Part amount to pay for invoice ${typed.external_transaction_id}`,
    });
    await part.waitFor();
    await part.fill('1.25');
    const later = await h.createInvoice();
    // The deliveries list refreshed (same poll) while the invoices list, being typed in, did not.
    await deliveryRow(later.id, 'invoice.created').waitFor();
    expect(await page.locator(`tr[data-invoice-id="${later.id}"]`).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`part-${typed.id}`);
    // Leaving the field (to its Pay part button) lets the list refresh; the typed amount and the focus stay.
    await page.keyboard.press('Tab');
    await page.locator(`tr[data-invoice-id="${later.id}"]`).waitFor();
    expect(await part.inputValue()).toBe('1.25');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`pay-part-${typed.id}`);
    await page.keyboard.press('Enter');
    await page
      .locator(`tr[data-invoice-id="${typed.id}"]`)
      .filter({ hasText: 'received 1.25000000' })
      .waitFor();
    expect(await neverReloaded()).toBe(true);
  });

  it('injects a fault with every field, refuses a body that is not JSON, and deletes one fault alone', async () => {
    await fetch(`${h.url}/_sandbox/faults`, {
      method: 'DELETE',
      signal: AbortSignal.timeout(WAIT_MS),
    });
    const form = page.getByTestId('fault-form');
    // A method the matched route serves (a fault no route could ever meet is refused), on ids no invoice has.
    await form.getByLabel('Method').selectOption('GET');
    await form.getByLabel('Path glob').fill('/v1/invoices/never-*');
    await form.getByLabel('Status').fill('503');
    await form.getByLabel('Latency (ms)').fill('1');
    await form.getByLabel('Probability').fill('0.5');
    await form.getByLabel('Count').fill('3');
    await form.getByLabel('Body (JSON, optional)').fill('{nope');
    await form.getByRole('button', { name: 'Inject fault' }).click();
    await page
      .getByTestId('dashboard-status')
      .filter({ hasText: 'Body: not valid JSON' })
      .waitFor();
    expect(await faultsNow()).toEqual([]);

    await form.getByLabel('Body (JSON, optional)').fill('{"error_codes":["down"],"errors":{}}');
    await form.getByRole('button', { name: 'Inject fault' }).click();
    await page
      .getByTestId('fault')
      .filter({ hasText: 'GET /v1/invoices/never-* → 503 after 1 ms, 3 left, p=0.5' })
      .waitFor();
    const [first] = await faultsNow();
    expect(first).toMatchObject({
      method: 'GET',
      path: '/v1/invoices/never-*',
      status: 503,
      latency_ms: 1,
      probability: 0.5,
      count: 3,
      hits: 0,
      body: { error_codes: ['down'], errors: {} },
    });

    await form.getByLabel('Method').selectOption('GET');
    await form.getByLabel('Path glob').fill('/v3/invoices/never');
    await form.getByLabel('Latency (ms)').fill('');
    await form.getByLabel('Probability').fill('');
    await form.getByLabel('Count').fill('');
    await form.getByLabel('Body (JSON, optional)').fill('');
    await form.getByRole('button', { name: 'Inject fault' }).click();
    await page.getByTestId('fault').nth(1).waitFor();

    await page
      .getByRole('button', {
        name: `Delete fault GET /v1/invoices/never-* (${first.id.slice(-8)})`,
      })
      .click();
    await page.locator(`[data-fault-id="${first.id}"]`).waitFor({ state: 'detached' });
    const left = await faultsNow();
    expect(left.map((f: { method: string; path: string }) => `${f.method} ${f.path}`)).toEqual([
      'GET /v3/invoices/never',
    ]);
    await fetch(`${h.url}/_sandbox/faults`, {
      method: 'DELETE',
      signal: AbortSignal.timeout(WAIT_MS),
    });
    await page.getByTestId('fault').first().waitFor({ state: 'detached' });
  });

  it('has no WCAG 2.1 A/AA violation at 1280×800 and works from the keyboard', async () => {
    await h.createInvoice(); // a pending invoice with its actions
    // axe is injected as a script, which the page's CSP refuses (rightly): this one context bypasses it.
    const axeContext = await browser.newContext({
      bypassCSP: true,
      viewport: { width: 1280, height: 800 },
    });
    try {
      const axePage = await axeContext.newPage();
      axePage.setDefaultTimeout(WAIT_MS);
      await axePage.goto(`${h.url}/_sandbox/`);
      await axePage.locator('tr[data-testid="delivery-row"] summary').first().click();
      await axePage
        .locator('#curl-create')
        .evaluate((pre) => ((pre.parentElement as HTMLDetailsElement).open = true));
      expect(formatViolations(await axeViolations(axePage))).toBe('');
    } finally {
      await axeContext.close();
    }

    // Keyboard, on a freshly loaded page (under the CSP): the skip link comes first, to the main content.
    const kb = await page.context().newPage();
    kb.on('pageerror', (e) => errors.push(e.message));
    kb.on('response', (r) => void (r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`)));
    kb.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    await kb.setViewportSize({ width: 1280, height: 800 });
    await kb.goto(`${h.url}/_sandbox/`);
    await kb.keyboard.press('Tab');
    expect(await kb.evaluate(() => document.activeElement?.textContent)).toBe(
      'Skip to main content',
    );
    expect((await kb.locator('a.skip').boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await kb.keyboard.press('Enter');
    expect(await kb.evaluate(() => document.activeElement?.id)).toBe('main');

    // A focus ring of at least 3:1 against the page and the white tables.
    await kb.keyboard.press('Tab');
    const ring = await kb.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return {
        color: s.outlineColor,
        width: parseFloat(s.outlineWidth),
        style: s.outlineStyle,
        page: getComputedStyle(document.body).backgroundColor,
      };
    });
    expect(ring.style).toBe('solid');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    expect(contrastRatio(ring.color, ring.page)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(ring.color, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(3);

    // Scroll regions are reachable and named; every button has a name of its own; each Part field says so.
    const regions = await kb
      .locator('.scroll')
      .evaluateAll((els) =>
        els.map((e) => [
          e.getAttribute('tabindex'),
          e.getAttribute('role'),
          e.getAttribute('aria-label'),
        ]),
      );
    expect(regions.length).toBeGreaterThanOrEqual(6);
    for (const [tabindex, role, label] of regions)
      expect([tabindex, role, !!label]).toEqual(['0', 'region', true]);
    const names = await kb
      .locator('button')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent!.trim()));
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    const pending = await kb
      .locator('tr[data-invoice-id]')
      .filter({ has: kb.locator('.status.pending') })
      .count();
    expect(pending).toBeGreaterThan(0);
    expect(await kb.getByRole('textbox', { name: /Part/ }).count()).toBe(pending);
    await kb.close();

    await saveScreenshot(page, 'dashboard-1280x800.png');
    expect(errors).toEqual([]);
    expect(await neverReloaded()).toBe(true);
  });
  it('with a control token: the page, its live poll and its JSON links carry it', async () => {
    const token = 'qa-dashboard-token';
    h.sandbox.config.controlToken = token;
    try {
      const tokenPage = await page.context().newPage();
      await tokenPage.goto(`${h.url}/_sandbox/?token=${token}`);
      const inv = await h.createInvoice();
      await tokenPage.locator(`tr[data-invoice-id="${inv.id}"]`).waitFor(); // the poll sent the token
      const [tab] = await Promise.all([
        tokenPage.context().waitForEvent('page'),
        tokenPage
          .getByRole('link', { name: `JSON of invoice ${inv.id}` })
          .first()
          .click(),
      ]);
      await tab.waitForURL(/^blob:/);
      const shown = JSON.parse((await tab.locator('body').textContent())!);
      expect(shown.invoice).toMatchObject({ id: inv.id, status: 'pending' });
      await tab.close();
      await tokenPage.close();
    } finally {
      h.sandbox.config.controlToken = null;
    }
  });
});
