import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { itemAt } from '../shared/defined.js';
import { judgeAuthorization } from './inbox.js';

/**
 * The example receiver's handling of one request, in process: the Authorization verdict it records,
 * the time it records at, and the merchant URLs and thank-you page on the sandbox itself. Delivery to
 * it over HTTP is in inbox.test.ts.
 */

describe('the example receiver checks Authorization as a merchant would', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('records valid, invalid and missing tokens (answering 200) and 404s an unknown merchant', async () => {
    t = createTestApp();
    const m = t.merchant;
    await t.request('PATCH', `/_sandbox/merchants/${m.id}`, { body: { callback_auth: 'always' } });
    const body = { event: { name: 'invoice.created', data: { id: 'x'.repeat(32) } } };
    const post = (headers: Record<string, string>) =>
      t.request('POST', `/_sandbox/inbox/${m.id}`, { body, headers });
    const valid = await post({
      authorization: `Token ${m.merchant_api_token}`,
      'x-sandbox-event-id': 'e1',
      'x-sandbox-delivery-attempt': '2',
    });
    expect(valid.status).toBe(200);
    expect(valid.body.entry).toMatchObject({
      authorization: 'valid',
      event_id: 'e1',
      delivery_attempt: 2,
      from_this_sandbox: false,
    });
    expect((await post({ authorization: 'Token nope' })).body.entry.authorization).toBe('invalid');
    expect((await post({})).body.entry.authorization).toBe('missing');
    expect((await t.request('POST', `/_sandbox/inbox/${'0'.repeat(32)}`, { body })).status).toBe(
      404,
    );
    expect(
      (
        await t.request('POST', `/_sandbox/inbox/${m.id}`, {
          raw: '{',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    const list = await t.request('GET', `/_sandbox/inbox?merchant_id=${m.id}&per_page=2`);
    expect(list.body.callbacks.map((e: { authorization: string }) => e.authorization)).toEqual([
      'missing',
      'invalid',
    ]);
    expect(list.body.meta).toEqual({ total_count: 3, next_page: 2, previous_page: null });
  });

  it("records a workspace merchant's callback at that workspace's time", async () => {
    t = createTestApp();
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const day = 86_400;
    const advanced = await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: day },
    });
    const body = { event: { name: 'invoice.created', data: { id: 'x'.repeat(32) } } };
    const got = await t.request('POST', `/_sandbox/inbox/${ws.merchant.id}`, { body });
    expect(got.status).toBe(200);
    const lag = Date.parse(got.body.entry.received_at) - Date.parse(advanced.body.now);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(60_000); // the workspace's day ahead, not the sandbox's time
  });

  it('judges a missing token by the merchant mode and the URL', () => {
    const m = { callback_auth: 'https-only' as const, merchant_api_token: 'tok' };
    expect(judgeAuthorization(m, undefined, 'http://127.0.0.1:7070/_sandbox/inbox/x').verdict).toBe(
      'not_sent',
    );
    expect(judgeAuthorization(m, undefined, 'https://shop.example/cb').verdict).toBe('missing');
    expect(
      judgeAuthorization({ ...m, callback_auth: 'never' }, undefined, 'https://shop.example/cb')
        .verdict,
    ).toBe('not_sent');
    expect(judgeAuthorization(m, 'Bearer tok', 'http://x/').verdict).toBe('valid');
    expect(judgeAuthorization(m, 'Token tokk', 'http://x/').verdict).toBe('invalid');
  });
});

describe('merchant URLs on the sandbox itself', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('a merchant can be pointed back at its example receiver and thank-you page with a PATCH', async () => {
    t = createTestApp();
    const id = itemAt(t.fixtures.merchants, 1).id;
    const res = await t.request('PATCH', `/_sandbox/merchants/${id}`, {
      body: {
        callback_url: `/_sandbox/inbox/${id}`,
        redirect_url: `/_sandbox/inbox/${id}/thank-you`,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.merchant).toMatchObject({
      callback_url: `/_sandbox/inbox/${id}`,
      redirect_url: `/_sandbox/inbox/${id}/thank-you`,
    });
  });

  it("the receiver's URL opened: a browser goes to the dashboard's inbox panel, a JSON client gets that merchant's entries", async () => {
    t = createTestApp();
    const m = t.merchant;
    const ws = await t.request('POST', '/_sandbox/workspaces', { body: {} });
    const other = ws.body.workspace.merchant.id as string;
    for (const id of [m.id, other])
      await t.request('POST', `/_sandbox/inbox/${id}`, { body: { event: { name: id } } });
    const browser = await t.request('GET', `/_sandbox/inbox/${m.id}`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      operationId: false, // a redirect has no body to check against the document
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/_sandbox/#inbox');
    const json = await t.request('GET', `/_sandbox/inbox/${m.id}`);
    expect(json.status).toBe(200);
    expect(json.body.callbacks.map((e: { event: string }) => e.event)).toEqual([m.id]);
    expect(json.body.meta.total_count).toBe(1);
    const listed = await t.request('GET', `/_sandbox/inbox?merchant_id=${m.id}`);
    expect(json.body).toEqual(listed.body);
    expect((await t.request('GET', `/_sandbox/inbox/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await t.request('GET', `/_sandbox/inbox/${m.id}?per_page=0`)).status).toBe(400);
  });

  it("a workspace merchant's thank-you page names that merchant, never the first fixture merchant", async () => {
    t = createTestApp();
    const ws = await t.request('POST', '/_sandbox/workspaces', { body: {} });
    expect(ws.status).toBe(201);
    const merchant = ws.body.workspace.merchant as { id: string; name: string };
    const text = await (
      await t.sandbox.app.request(`http://localhost/_sandbox/inbox/${merchant.id}/thank-you`)
    ).text();
    const intro = /<p data-testid="thank-you-merchant">([^]*?)<\/p>/.exec(text)?.[1] ?? '';
    expect(intro).toContain(`${merchant.name}'s return page`);
    expect(intro).toContain(`merchant <code>${merchant.id}</code>`);
    expect(text).not.toContain('first fixture merchant');
    expect(text).not.toContain(t.merchant.id);
  });

  it('the thank-you page shows what arrived with the redirect and the invoice as the merchant reads it', async () => {
    t = createTestApp();
    const m = t.merchant;
    const inv = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.fully_paid' },
    });
    const id = inv.body.invoice.id as string;
    const page = await t.sandbox.app.request(
      `http://localhost/_sandbox/inbox/${m.id}/thank-you?invoice_id=${id}`,
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const text = await page.text();
    expect(text).toContain('Thank you for your payment');
    expect(text).toMatch(new RegExp(`<code>invoice_id</code></th><td><code>${id}</code>`));
    expect(text).toMatch(/data-testid="thank-you-status">fully_paid</);
    const other = await t.sandbox.app.request(
      `http://localhost/_sandbox/inbox/${m.id}/thank-you?invoice_id=${'0'.repeat(32)}`,
    );
    expect(await other.text()).toContain('No invoice of this merchant has this id.');
    expect(
      (await t.sandbox.app.request(`http://localhost/_sandbox/inbox/${'0'.repeat(32)}/thank-you`))
        .status,
    ).toBe(404);
  });
});
