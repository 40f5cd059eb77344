import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { SESSION_COOKIE } from './checkout.routes.js';
import { createSessionStore } from './checkout.session.js';
import { walletSubject } from './wallet-session.service.js';
import {
  balanceOf,
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
afterEach(() => {
  t.assertLedger();
  return t.close();
});

const path = (id: string) => `/payment/invoice/${id}`;
/** The first merchant's redirect_url (the example thank-you page, a path) as the browser is sent to it. */
const redirectUrl = () => new URL(t.merchant.redirect_url!, t.sandbox.config.publicUrl).href;
const rich = () => t.fixtures.customers[0]!;
const poor = () => t.fixtures.customers.find((c) => Number(c.accounts[0]!.balance) < 100)!;

async function login(id: string, who: string, password: string) {
  return postForm(t, `${path(id)}/wallet/login`, { login: who, password });
}

describe('wallet', () => {
  it('logs in, shows the balance, and pays: customer debited and merchant credited at once', async () => {
    const inv = await createInvoice(t, { amount: 20 });
    const c = rich();
    const res = await login(inv.id, c.email, c.password);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${path(inv.id)}?method=wallet`);
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toContain(`Path=${path(inv.id)}`);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);

    const page = await getPage(t, `${path(inv.id)}?method=wallet`, res.cookie);
    expect(textOf(page.html, 'wallet-balance')).toBe('PHP 50,000.00');
    expect(testIds(page.html)).toContain('confirm-payment');
    expect(testIds(page.html)).not.toContain('insufficient-balance');

    const wallet = c.accounts[0]!.id;
    const before = {
      customer: balanceOf(t, wallet),
      merchant: balanceOf(t, t.merchant.wallet_account_id),
    };
    const paid = await postForm(t, `${path(inv.id)}/wallet/confirm`, {}, res.cookie);
    // the payment completes the invoice: straight back to the merchant, no paid page with a timer
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${redirectUrl()}?invoice_id=${inv.id}`);
    expect(balanceOf(t, wallet)).toBe(before.customer - 20n * 100_000_000n);
    expect(balanceOf(t, t.merchant.wallet_account_id)).toBe(before.merchant + 20n * 100_000_000n);
    const after = await getPage(t, `${path(inv.id)}?method=wallet`, res.cookie);
    expect(after.html).toMatch(/data-status="fully_paid"/);
    const payment = t.services.invoiceRepo.payments(inv.id)[0]!;
    expect(payment).toMatchObject({
      payment_collector: 'coins_peso_wallet',
      payer_account_id: wallet,
    });
  });

  it('accepts the mobile number as the login', async () => {
    const inv = await createInvoice(t);
    const res = await login(inv.id, rich().mobile_number, rich().password);
    expect(res.status).toBe(303);
  });

  it('shows a message, not a crash, for a wrong password or an unknown login, and keeps what was typed', async () => {
    const inv = await createInvoice(t);
    for (const [who, pw] of [
      [rich().email, 'wrong-password'],
      ['nobody@customer.example.ph', rich().password],
      ['', ''],
    ] as const) {
      const res = await login(inv.id, who, pw);
      expect(res.status, who).toBe(401);
      expect(res.cookie).toBeNull();
      expect(textOf(res.html, 'login-error')).toMatch(/not right/);
      expect(res.html).toContain(`value="${who}"`);
      expect(res.html).toMatch(
        /aria-invalid="true" aria-describedby="notice" data-testid="login-email"/,
      );
    }
  });

  it('shows insufficient balance on the page and refuses the payment, moving nothing', async () => {
    const inv = await createInvoice(t, { amount: 100 });
    const c = poor();
    const res = await login(inv.id, c.email, c.password);
    const page = await getPage(t, `${path(inv.id)}?method=wallet`, res.cookie);
    expect(textOf(page.html, 'insufficient-balance')).toMatch(/Insufficient balance/);
    expect(textOf(page.html, 'shortfall')).toBe('PHP 75.00');
    expect(testIds(page.html)).toContain('pay-counter-instead');
    expect(textOf(page.html, 'wallet-balance')).toBe('PHP 25.00');
    expect(testIds(page.html)).not.toContain('confirm-payment');
    const before = balanceOf(t, c.accounts[0]!.id);
    const post = await postForm(t, `${path(inv.id)}/wallet/confirm`, {}, res.cookie);
    expect(post.status).toBe(409);
    expect(testIds(post.html)).toContain('insufficient-balance');
    expect(balanceOf(t, c.accounts[0]!.id)).toBe(before);
    expect(t.services.invoiceRepo.byId(inv.id)!.status).toBe('pending');
  });

  it('never pays from a forged, foreign, expired or missing session', async () => {
    const inv = await createInvoice(t, { expires_at: '1h' });
    const other = await createInvoice(t);
    const victim = rich();
    // A session opened by another store (another process): its token names nothing here.
    const forged = createSessionStore().open({
      customerId: victim.id,
      subject: walletSubject.invoice(inv.id),
      tenant: null,
      expiresAt: Number.MAX_SAFE_INTEGER,
    });
    const otherSession = (await login(other.id, victim.email, victim.password)).cookie!;
    const expiring = (await login(inv.id, victim.email, victim.password)).cookie!;
    t.advance(15 * 60 + 1); // past the 15-minute session, short of the invoice's hour
    const cookies = [
      `${SESSION_COOKIE}=${forged}`,
      otherSession,
      expiring,
      `${SESSION_COOKIE}=garbage`,
      null,
    ];
    const before = balanceOf(t, victim.accounts[0]!.id);
    for (const cookie of cookies) {
      const res = await postForm(t, `${path(inv.id)}/wallet/confirm`, {}, cookie);
      expect(res.status, String(cookie)).toBe(401);
      expect(testIds(res.html)).toContain('session-expired');
    }
    expect(balanceOf(t, victim.accounts[0]!.id)).toBe(before);
    expect(t.services.invoiceRepo.payments(inv.id)).toEqual([]);
  });

  it('logs out', async () => {
    const inv = await createInvoice(t);
    const res = await postForm(t, `${path(inv.id)}/wallet/logout`);
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=;.*Max-Age=0`));
  });
});

describe('over the counter', () => {
  it('issues one reference number for the chosen outlet, with its barcode and instructions', async () => {
    const inv = await createInvoice(t);
    const seven = t.fixtures.payin_outlets.find((o) => o.name === '7-Eleven')!;
    const res = await postForm(t, `${path(inv.id)}/counter`, { outlet: seven.id });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${path(inv.id)}?method=counter&outlet=${seven.id}`);
    const ref = t.services.invoiceRepo.byId(inv.id)!.current_payment_reference_number!;
    expect(ref).toMatch(/^\d{13}$/);
    const page = await getPage(t, res.headers.get('location')!);
    // grouped for reading aloud, the digits kept whole for tests and the copy button
    expect(textOf(page.html, 'reference-number')).toBe(
      `${ref.slice(0, 4)} ${ref.slice(4, 8)} ${ref.slice(8)}`,
    );
    expect(page.html).toContain(`data-testid="reference-number" data-reference="${ref}"`);
    expect(page.html).toContain(`data-copy="${ref}"`);
    expect(page.html).toMatch(
      /<figcaption id="ref-caption">Reference number<\/figcaption><p class="ref" tabindex="-1" aria-describedby="ref-caption" data-outcome=""/,
    );
    expect(page.html).toMatch(
      new RegExp(
        `<svg role="img" aria-label="Barcode of reference number ${ref}" data-testid="barcode"`,
      ),
    );
    expect(page.html).toContain(seven.instructions);
    // outlets are plain buttons: the chosen one is named in the instructions, not toggled
    expect(page.html).not.toContain('aria-pressed');
    expect(textOf(page.html, 'outlet-instructions')).toContain('At 7-Eleven:');

    const ml = t.fixtures.payin_outlets.find((o) => o.name === 'M Lhuillier')!;
    await postForm(t, `${path(inv.id)}/counter`, { outlet: ml.id });
    expect(t.services.invoiceRepo.byId(inv.id)!.current_payment_reference_number).toBe(ref);
    const events = t.db
      .prepare(
        "SELECT COUNT(*) AS n FROM outbox_events WHERE name = 'invoice.payment_reference_number_generated'",
      )
      .get() as { n: number };
    expect(events.n).toBe(1);
  });

  it('refuses an outlet the invoice does not support', async () => {
    const inv = await createInvoice(t, { supported_payment_collectors: ['seven_connect_deposit'] });
    const ml = t.fixtures.payin_outlets.find((o) => o.name === 'M Lhuillier')!;
    for (const outlet of [ml.id, 'no-such-outlet']) {
      const res = await postForm(t, `${path(inv.id)}/counter`, { outlet });
      expect(res.status).toBe(400);
      expect(testIds(res.html)).toContain('outlet-error');
    }
    expect(t.services.invoiceRepo.byId(inv.id)!.current_payment_reference_number).toBeNull();
  });
});

describe('sandbox outcome chooser', () => {
  it('pays part (half of what is due), then in full, with no credentials', async () => {
    const inv = await createInvoice(t, { amount: 30 });
    expect((await postForm(t, `${path(inv.id)}/sandbox`, { outcome: 'part' })).status).toBe(303);
    let page = await getPage(t, path(inv.id));
    expect(page.html).toMatch(/data-status="pending">Partly paid</);
    expect(textOf(page.html, 'invoice-amount-received')).toBe('PHP 15.00');
    expect(textOf(page.html, 'invoice-amount-due')).toBe('PHP 15.00');
    const full = await postForm(t, `${path(inv.id)}/sandbox`, { outcome: 'full' });
    expect(full.headers.get('location')).toBe(`${redirectUrl()}?invoice_id=${inv.id}`);
    page = await getPage(t, path(inv.id));
    expect(page.html).toMatch(/data-status="fully_paid"/);
    expect(t.services.invoiceRepo.payments(inv.id).map((p) => p.amount)).toEqual([
      15n * 100_000_000n,
      15n * 100_000_000n,
    ]);
    // a further choice on a paid invoice changes nothing and just shows the state
    expect((await postForm(t, `${path(inv.id)}/sandbox`, { outcome: 'full' })).status).toBe(303);
  });

  it('lets it expire, and pays a wallet-only invoice from the first fixture customer', async () => {
    const a = await createInvoice(t);
    await postForm(t, `${path(a.id)}/sandbox`, { outcome: 'expire' });
    expect(t.services.invoiceRepo.byId(a.id)!.status).toBe('expired');

    const b = await createInvoice(t, { supported_payment_collectors: ['coins_peso_wallet'] });
    await postForm(t, `${path(b.id)}/sandbox`, { outcome: 'full' });
    expect(t.services.invoiceRepo.payments(b.id)[0]).toMatchObject({
      payment_collector: 'coins_peso_wallet',
      payer_account_id: rich().accounts[0]!.id,
    });
  });

  it('is hidden and refused when the control API needs a token', async () => {
    await t.close();
    t = createTestApp({ config: { controlToken: 'secret-token' } });
    const inv = await createInvoice(t);
    expect(testIds((await getPage(t, path(inv.id))).html)).not.toContain('sandbox-pay-full');
    const res = await postForm(t, `${path(inv.id)}/sandbox`, { outcome: 'full' });
    expect(res.status).toBe(403);
    expect(t.services.invoiceRepo.byId(inv.id)!.status).toBe('pending');
  });
});
