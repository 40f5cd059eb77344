import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { DASHBOARD_CSP } from './dashboard.routes.js';
import { dashboardHtml } from './dashboard.test-support.js';

/**
 * The dashboard as a whole: what it shows of the fixtures, how it escapes and what it loads, the
 * workspace time beside each object, and the live poll. Its panels one by one are in
 * dashboard-panels.test.ts.
 */

let t: TestApp;
appPerTest((app) => (t = app));

const page = (query = '') => dashboardHtml(t, query);

describe('GET /_sandbox/ (QA dashboard)', () => {
  it('shows every fixture credential, the clock and the forms', async () => {
    const html = await page();
    for (const m of t.fixtures.merchants) expect(html).toContain(m.merchant_api_token);
    for (const d of t.fixtures.developers) {
      expect(html).toContain(d.app.api_key);
      expect(html).toContain(d.app.api_secret);
    }
    for (const c of t.fixtures.customers) {
      expect(html).toContain(c.email);
      expect(html).toContain(c.password);
    }
    expect(html).toContain('data-testid="clock-now"');
    expect(html).toContain('data-form="advance"');
    expect(html).toContain('data-form="fault"');
    expect(html).toContain('data-token=""');
  });

  it('escapes what it shows and loads nothing from elsewhere', async () => {
    await t.request('POST', '/_sandbox/merchants', { body: { name: '<script>alert(1)</script>' } });
    const html = await page();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // Style and script are files of this origin, under a CSP that allows nothing else and nothing inline.
    const external = [...html.matchAll(/<(?:script|link|img)[^>]+(?:src|href)="([^"]*)"/gi)].map(
      (m) => m[1],
    );
    expect(external).toEqual([
      'data:,',
      '/_sandbox/dashboard/dashboard.css',
      '/_sandbox/dashboard/dashboard.js',
    ]); // no favicon request
    expect(html).not.toMatch(/<script>|<style>|\sstyle=|\son[a-z]+=/i);
    const res = await t.request('GET', '/_sandbox/', { operationId: false });
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe');
    for (const [path, type] of [
      ['/_sandbox/dashboard/dashboard.css', 'text/css'],
      ['/_sandbox/dashboard/dashboard.js', 'text/javascript'],
    ] as const) {
      const asset = await t.request('GET', path, { operationId: false });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain(type);
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it("shows each workspace's time beside every object of that workspace, and none beside the base data", async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const inv = await t.request('POST', '/v1/invoices/', {
      token: ws.merchant.merchant_api_token,
      body: { amount: 10, currency: 'PHP', external_transaction_id: 'ws-clock-1' },
    });
    expect(inv.status, inv.text).toBe(201);
    const php = ws.app.owner.accounts.find((a: { currency: string }) => a.currency === 'PHP');
    const preq = await t.signed('POST', '/v3/payment-requests/', {
      key: ws.app.api_key,
      secret: ws.app.api_secret,
      body: { payer_contact_info: ws.customer.email, receiving_account: php.id, amount: 1 },
    });
    expect(preq.status, preq.text).toBe(201);
    const base = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.created' },
    });
    const adv = await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: 600 },
    });
    expect(adv.status).toBe(200);

    const html = await page();
    const note = /data-testid="workspace-clock">workspace time (\S+) \(offset (\S+) s\)/;
    /** The rows of one section whose text contains `marker`. */
    const rows = (heading: string, marker: string) => {
      const start = html.indexOf(`id="${heading}"`);
      const section = html.slice(start, html.indexOf('</section>', start));
      return [...section.matchAll(/<tr[\s\S]*?<\/tr>/g)]
        .map((m) => m[0])
        .filter((r) => r.includes(marker));
    };
    const cases: Array<[string, string, string]> = [
      ['invoices', 'inv-h', inv.body.invoice.id],
      ['payment requests', 'preq-h', preq.body['payment-request'].id],
      ['callback deliveries', 'dlv-h', inv.body.invoice.id],
      ['merchants', 'm-h', ws.merchant.merchant_api_token],
      ['HMAC applications', 'a-h', ws.app.api_key],
      ['customers', 'c-h', ws.customer.email],
    ];
    for (const [panel, heading, marker] of cases) {
      const found = rows(heading, marker);
      expect(found.length, panel).toBeGreaterThan(0);
      for (const r of found) {
        const m = r.match(note);
        expect(m, `${panel}: ${r.slice(0, 200)}`).not.toBeNull();
        // The workspace's time at render: the advanced time, a moment later.
        const lag = Date.parse(m?.[1] ?? '') - Date.parse(adv.body.now);
        expect(lag, panel).toBeGreaterThanOrEqual(0);
        expect(lag, panel).toBeLessThan(5_000);
        expect(Number(m?.[2]), panel).toBeCloseTo(600, 0);
      }
    }
    // The base data runs on the sandbox clock shown at the top: no workspace line beside it.
    for (const [panel, heading, marker] of [
      ['invoices', 'inv-h', base.body.invoice.id],
      ['callback deliveries', 'dlv-h', base.body.invoice.id],
      ['merchants', 'm-h', t.merchant.merchant_api_token],
      ['customers', 'c-h', t.fixtures.customers[0]?.email ?? '(no fixture customer)'],
    ] as const) {
      const found = rows(heading, marker);
      expect(found.length, panel).toBeGreaterThan(0);
      for (const r of found) expect(r, panel).not.toContain('workspace-clock');
    }
  });

  it('the live poll answers a version that moves when invoices, deliveries, the clock or faults change', async () => {
    const state = async () =>
      (await t.request('GET', '/_sandbox/dashboard/state', { operationId: false })).body;
    const v0 = (await state()).version;
    expect((await state()).version).toBe(v0);
    await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } });
    const v1 = (await state()).version;
    expect(v1).not.toBe(v0);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 60 } });
    const s2 = await state();
    expect(s2.version).not.toBe(v1);
    expect(s2.offset_seconds).toBe(60);
    await t.request('POST', '/_sandbox/faults', { body: { path: '/v1/invoices/x' } });
    expect((await state()).version).not.toBe(s2.version);
  });
});
