import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

// Real time is under the test's hand: only the sandbox's own catch-up (the guard before each request)
// can make anything happen between two requests; no tick runs.
let real = 1_800_000_000_000;
let t: TestApp;
beforeEach(() => {
  real = 1_800_000_000_000;
  t = createTestApp({ realNowMs: () => real });
});
afterEach(() => t.close());

async function workspace() {
  const w = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
  return {
    id: w.id as string,
    token: w.merchant.merchant_api_token as string,
    key: w.app.api_key as string,
    secret: w.app.api_secret as string,
    account: (w.app.owner.accounts as Array<{ id: string; currency: string }>).find(
      (a) => a.currency === 'PHP',
    )!.id,
    customer: w.customer.email as string,
  };
}

describe('due work of workspace clocks, run before each request', () => {
  it("expires an advanced workspace's invoice when real time reaches it, without a tick, and nobody else's", async () => {
    const a = await workspace();
    const b = await workspace();
    const create = async (w: { token: string }, ext: string) =>
      (
        await t.request('POST', '/v1/invoices/', {
          token: w.token,
          body: { amount: 5, currency: 'PHP', external_transaction_id: ext, expires_at: '2m' },
        })
      ).body.invoice.id as string;
    const ia = await create(a, 'guard-a');
    const ib = await create(b, 'guard-b');
    const read = async (w: { token: string }, id: string) =>
      (await t.request('GET', `/v1/invoices/${id}`, { token: w.token })).body.invoice.status;
    // Both expire two minutes after creation on their own clocks; A's clock is then a minute ahead.
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 60 },
    });
    expect(await read(a, ia)).toBe('pending');
    real += 59_000;
    expect(await read(a, ia)).toBe('pending');
    real += 1_001;
    expect(await read(a, ia)).toBe('expired');
    expect(await read(b, ib)).toBe('pending');
    real += 60_000;
    expect(await read(b, ib)).toBe('expired');
  });

  it("settles a workspace's transfer on its own clock: an advance of that workspace settles it, another's stays pending", async () => {
    const a = await workspace();
    const b = await workspace();
    const send = async (w: Awaited<ReturnType<typeof workspace>>) => {
      const res = await t.signed('POST', '/v3/transfers/', {
        key: w.key,
        secret: w.secret,
        body: { account: w.account, target_address: w.customer, amount: '1' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.transfer.id as string;
    };
    const ta = await send(a);
    const tb = await send(b);
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 11 },
    });
    const statusOf = (id: string) =>
      t.db.prepare('SELECT status FROM transfers WHERE id = ?').pluck().get(id);
    expect([statusOf(ta), statusOf(tb)]).toEqual(['success', 'pending']);
    t.assertLedger();
  });
});
