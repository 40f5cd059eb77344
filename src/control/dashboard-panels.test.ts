import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { dashboardHtml } from './dashboard.test-support.js';

/**
 * The dashboard's panels one by one: invoices and their actions, deliveries and the example receiver,
 * recent requests and faults, with their filters. The page as a whole (credentials, escaping, workspace
 * time, the live poll) is in dashboard.test.ts.
 */

let t: TestApp;
appPerTest((app) => (t = app));

const page = (query = '') => dashboardHtml(t, query);

describe('GET /_sandbox/ (QA dashboard): its panels', () => {
  it('lists recent invoices with actions only while they are pending', async () => {
    const pending = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.created' },
    });
    const paid = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.fully_paid' },
    });
    const html = await page();
    const row = (id: string) =>
      html.slice(
        html.indexOf(`data-invoice-id="${id}"`),
        html.indexOf('</tr>', html.indexOf(`data-invoice-id="${id}"`)),
      );
    const p = row(pending.body.invoice.id);
    expect(p).toContain('data-testid="pay-full-wallet"');
    expect(p).toContain('data-testid="pay-full-counter"');
    expect(p).toContain('data-action="expire"');
    expect(p).toContain('data-action="cancel"');
    expect(p).toContain('value="50.00000000"');
    const f = row(paid.body.invoice.id);
    expect(f).toContain('fully_paid');
    expect(f).not.toContain('data-action="pay"');
    // A paid invoice offers the manual send of its invoice.fully_paid (a pending one does not).
    expect(f).toContain(
      `data-action="send-callback" data-invoice="${paid.body.invoice.id}" data-event="invoice.fully_paid"`,
    );
    expect(p).not.toContain('data-action="send-callback"');
  });

  it('the calls its buttons make work as the page sends them', async () => {
    const inv = (
      await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } })
    ).body.invoice;
    const part = await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet', amount: '50.00000000' },
    });
    expect(part.body.invoice.amount_due).toBe('50.00000000');
    const rest = await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'cash_payment' },
    });
    expect(rest.body.invoice.status).toBe('fully_paid');
    expect(
      (await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 900 } })).status,
    ).toBe(200);
    t.assertLedger();
  });

  it('links each invoice to its hosted page and its JSON, with copy-as-curl for reading, paying and creating', async () => {
    const inv = (
      await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } })
    ).body.invoice;
    const html = await page();
    expect(html).toContain(`href="${inv.payment_url}"`);
    expect(html).toContain(`href="/_sandbox/invoices/${inv.id}"`);
    expect(html).toContain(
      `curl -sS -X POST &#39;${new URL(inv.payment_url).origin}/_sandbox/invoices/${inv.id}/payments&#39;`,
    );
    const createToken = html.match(/-H &#39;Authorization: Token ([^&]+)&#39;/)?.[1];
    expect(t.fixtures.merchants.map((m) => m.merchant_api_token)).toContain(createToken);
    // The JSON link answers for QA without the merchant's token.
    const json = await t.request('GET', `/_sandbox/invoices/${inv.id}`);
    expect(json.status).toBe(200);
    expect(json.body.invoice).toMatchObject({
      id: inv.id,
      status: 'pending',
      payment_url: inv.payment_url,
    });
    const missing = await t.request('GET', '/_sandbox/invoices/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error_codes).toEqual(['not_found']);
  });

  it('shows what the example receiver got, and why a pending delivery waits', async () => {
    const m = t.merchant;
    await t.request('POST', `/_sandbox/inbox/${m.id}`, {
      body: { event: { name: 'invoice.created', data: { id: 'f'.repeat(32) } } },
      headers: { authorization: 'Token wrong', 'x-sandbox-delivery-attempt': '1' },
    });
    const inv = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.created' },
    });
    // Forced: no payment has arrived, so the sandbox would not send invoice.updated on its own.
    await t.request('POST', `/_sandbox/invoices/${inv.body.invoice.id}/callbacks`, {
      body: { event: 'invoice.updated', force: true },
    });
    const html = await page();
    const inbox = html.slice(
      html.indexOf('id="inbox"'),
      html.indexOf('</section>', html.indexOf('id="inbox"')),
    );
    expect(inbox).toContain('data-testid="inbox-row" data-authorization="invalid"');
    expect(inbox).toContain('wrong token (a merchant answers 401)');
    expect(inbox).toContain('f'.repeat(32));
    // Each row names the merchant it was received for; no fixed "first fixture merchant" wording.
    expect(inbox).toContain(
      `<td data-testid="inbox-merchant">${m.name}<br><code class="id">${m.id}</code></td>`,
    );
    expect(inbox).toContain('each row names the merchant it was received for');
    expect(html).toMatch(
      /data-testid="delivery-waiting">queued behind delivery [0-9a-f]{32} \(invoice\.created\), which has not been sent yet</,
    );
  });

  it('lists deliveries with their attempts, filtered by invoice, event and status', async () => {
    const a = (await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } }))
      .body.invoice;
    const b = (
      await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.fully_paid' } })
    ).body.invoice;
    const all = await page();
    expect(all).toContain(`data-invoice-id="${a.id}"`);
    expect((all.match(/data-testid="delivery-row"/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect(all).toMatch(/aria-label="Redeliver delivery [0-9a-f]{8} \(invoice\.fully_paid\)"/);
    const byInvoice = await page(`?invoice=${a.id}`);
    const rows = [
      ...byInvoice.matchAll(
        /data-testid="delivery-row" data-delivery-id="[^"]+" data-status="[^"]+">[\s\S]*?<\/tr>/g,
      ),
    ].map((m) => m[0]);
    expect(rows.length).toBe(1);
    expect(rows[0]).toContain(a.id);
    expect(rows[0]).not.toContain(b.id);
    const byEvent = await page('?event=invoice.fully_paid');
    expect(byEvent.match(/data-testid="delivery-row"/g)?.length).toBe(1);
    expect(await page('?delivery_status=delivered')).toContain('No deliveries match these filters');
    const bad = await page('?event=nope&delivery_status=lost&status=abc');
    expect(bad).toContain('Unknown event &quot;nope&quot; (filter ignored).');
    expect(bad).toContain('Unknown delivery status &quot;lost&quot;');
    expect(bad).toContain('use a code such as 404 or a class such as 4xx');
  });

  it('shows active faults with their hits, and recent requests', async () => {
    await t.request('POST', '/_sandbox/faults', {
      body: { path: '/v1/invoices/*', status: 503, count: 3 },
    });
    await t.request('GET', '/v1/invoices/abc', {
      token: t.merchant.merchant_api_token,
      operationId: false,
    });
    const html = await page();
    expect(html).toContain('/v1/invoices/*');
    expect(html).toContain('2 left');
    expect(html).toContain('1 hits');
    expect(html).toContain('GET /v1/invoices/abc');
  });

  it('filters recent requests by path, status and auth, and hides the hosted page polls unless asked', async () => {
    const inv = (
      await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } })
    ).body.invoice;
    await t.request('GET', `/payment/invoice/${inv.id}/status`, { operationId: false });
    await t.request('GET', '/v3/invoices/?page=1', { token: t.merchant.merchant_api_token });
    await t.request('GET', '/v3/invoices/', { token: 'bad', operationId: false });
    const html = await page();
    expect(html).toContain('GET /v3/invoices/?page=1');
    expect(html).toContain('1 status polls of the hosted page hidden');
    expect(html).not.toContain(`/payment/invoice/${inv.id}/status`);
    expect(html).toContain('{&quot;event&quot;:&quot;invoice.created&quot;}'); // the trigger's body excerpt
    expect(await page('?polls=1')).toContain(`GET /payment/invoice/${inv.id}/status`);
    const failed = await page('?status=4xx');
    expect(failed).toContain('invalid_token');
    expect(failed).not.toContain('GET /v3/invoices/?page=1');
    const merchantOnly = await page('?auth=merchant');
    expect(merchantOnly).toContain('GET /v3/invoices/?page=1');
    expect(merchantOnly).not.toContain('invalid_token');
    expect(await page('?path=page%3D1&status=200')).toContain('1 of 1 shown');
  });

  it('deletes one fault alone; an unknown one is a 404', async () => {
    const one = (
      await t.request('POST', '/_sandbox/faults', {
        body: {
          path: '/v1/**',
          status: 502,
          latency_ms: 5,
          probability: 0.5,
          count: 2,
          body: { x: 1 },
        },
      })
    ).body.fault;
    const two = (await t.request('POST', '/_sandbox/faults', { body: { path: '/v3/**' } })).body
      .fault;
    expect(await page()).toContain(`aria-label="Delete fault * /v1/** (${one.id.slice(-8)})"`);
    expect((await t.request('DELETE', `/_sandbox/faults/${one.id}`)).status).toBe(204);
    expect(
      (await t.request('GET', '/_sandbox/faults')).body.faults.map((f: { id: string }) => f.id),
    ).toEqual([two.id]);
    const again = await t.request('DELETE', `/_sandbox/faults/${one.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error_codes).toEqual(['not_found']);
  });
});
