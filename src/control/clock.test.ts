import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const invoiceRow = (id: string) =>
  t.db
    .prepare('SELECT status, updated_at, expires_at FROM invoices WHERE id = ?')
    .safeIntegers(true)
    .get(id) as {
    status: string;
    updated_at: bigint;
    expires_at: bigint;
  };

describe('clock', () => {
  it('GET /_sandbox/clock shows sandbox time and a zero offset', async () => {
    const res = await t.request('GET', '/_sandbox/clock');
    expect(res.status).toBe(200);
    expect(res.body.offset_seconds).toBe(0);
    expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(60_000);
  });

  it('advance moves the offset forward, persists it, and reset brings it back to zero', async () => {
    const res = await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
    expect(res.status).toBe(200);
    expect(res.body.offset_seconds).toBe(3600);
    expect(Date.parse(res.body.now) - Date.now()).toBeGreaterThan(3_500_000);
    const stored = t.db.prepare("SELECT value FROM meta WHERE key = 'clock_offset'").get() as {
      value: string;
    };
    expect(stored.value).toBe('3600000000');
    const more = await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 0.5 } });
    expect(more.body.offset_seconds).toBe(3600.5);
    const reset = await t.request('POST', '/_sandbox/clock/reset');
    expect(reset.body.offset_seconds).toBe(0);
    expect((await t.request('GET', '/_sandbox/clock')).body.offset_seconds).toBe(0);
  });

  it.each([
    [{}, 'This field is required.'],
    [{ seconds: 0 }, 'Ensure this value is greater than 0.'],
    [{ seconds: -5 }, 'Ensure this value is greater than 0.'],
    [{ seconds: '60' }, 'A valid number is required.'],
    [{ seconds: 31622401 }, 'Ensure this value is less than or equal to 31622400.'],
  ])('refuses %j with 400: %s', async (body, message) => {
    const res = await t.request('POST', '/_sandbox/clock/advance', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error_codes: ['validation_error'], errors: { seconds: [message] } });
    expect(t.services.clock.offsetMicros()).toBe(0);
  });

  it('expires due invoices at once, without anyone reading them: updated_at = expires_at', async () => {
    const created = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: { amount: 5, currency: 'PHP', external_transaction_id: 'clock-1' },
    });
    const id = created.body.invoice.id as string;
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 899 } });
    expect(invoiceRow(id).status).toBe('pending');
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 2 } });
    const row = invoiceRow(id);
    expect(row.status).toBe('expired');
    expect(row.updated_at).toBe(row.expires_at);
    const seen = await t.request('GET', `/v1/invoices/${id}`, {
      token: t.merchant.merchant_api_token,
    });
    expect(seen.body.invoice).toMatchObject({
      status: 'expired',
      expires_in_seconds: null,
      updated_at: created.body.invoice.expires_at,
    });
    const names = t.db
      .prepare('SELECT name FROM outbox_events WHERE invoice_id = ?')
      .all(id) as Array<{ name: string }>;
    expect(names.map((n) => n.name)).toEqual(['invoice.created']);
    // Going back in time does not un-expire anything.
    await t.request('POST', '/_sandbox/clock/reset');
    expect(invoiceRow(id).status).toBe('expired');
  });

  it('with expiryEvents, expiry by the clock raises invoice.updated', async () => {
    await t.close();
    t = createTestApp({ config: { expiryEvents: true } });
    const created = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: { amount: 5, currency: 'PHP', external_transaction_id: 'clock-2' },
    });
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 901 } });
    const events = t.db
      .prepare('SELECT name, payload FROM outbox_events WHERE invoice_id = ? ORDER BY seq')
      .all(created.body.invoice.id) as Array<{
      name: string;
      payload: string;
    }>;
    expect(events.map((e) => e.name)).toEqual(['invoice.created', 'invoice.updated']);
    expect(JSON.parse(events[1]!.payload).event.data.amount_received).toBe('0');
  });
});

describe('POST /_sandbox/reset (resetSandbox)', () => {
  it('drops data, reloads fixtures, resets the clock and clears faults', async () => {
    await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.fully_paid' } });
    await t.request('POST', '/_sandbox/customers', { body: { email: 'gone@example.ph' } });
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 60 } });
    await t.request('POST', '/_sandbox/faults', { body: { path: '/v1/**' } });
    await t.request('POST', `/_sandbox/inbox/${t.merchant.id}`, {
      body: { event: { name: 'invoice.created' } },
    });
    expect((await t.request('GET', '/_sandbox/inbox')).body.meta.total_count).toBe(1);
    const res = await t.request('POST', '/_sandbox/reset');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reset: true });
    expect((t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n).toBe(0);
    expect((await t.request('GET', '/_sandbox/clock')).body.offset_seconds).toBe(0);
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
    expect((await t.request('GET', '/_sandbox/inbox')).body.meta.total_count).toBe(0);
    const customers = await t.request('GET', '/_sandbox/customers?per_page=100');
    expect(customers.body.meta.total_count).toBe(t.fixtures.customers.length);
    const account = await t.request(
      'GET',
      `/_sandbox/accounts/${t.fixtures.customers[0]!.accounts[0]!.id}`,
    );
    expect(account.body.account.balance).toBe('50000.00000000');
    // Everything still works after the reload (prepared statements survive the re-created schema).
    const again = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.fully_paid' },
    });
    expect(again.status).toBe(201);
    t.assertLedger();
  });
});
