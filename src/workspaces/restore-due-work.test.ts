import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

// Rows a restore writes fall due on the copy's clock: the due work's guard (src/clock/due-work.ts) must
// hear of them, or an imported scenario's invoice would expire only at the next clock move. Real time
// is under the test's hand and no background tick runs: only the guard can start the expiry.
let real = Date.parse('2026-11-20T09:00:00.000Z');
let source: TestApp;
let target: TestApp;
beforeEach(() => {
  real = Date.parse('2026-11-20T09:00:00.000Z');
  source = createTestApp({ realNowMs: () => real });
  target = createTestApp({ realNowMs: () => real });
});
afterEach(() => {
  source.close();
  target.close();
});

const workspace = async (t: TestApp, body: Record<string, unknown> = {}) => {
  const res = await t.request('POST', '/_sandbox/workspaces', { body });
  expect(res.status, res.text).toBe(201);
  return res.body.workspace as { id: string; merchant: { id: string; merchant_api_token: string } };
};

it("an imported scenario's invoice expires at its time on the copy's clock, without a clock move", async () => {
  // The scenario: a workspace whose invoice expires two minutes after the snapshot, exported.
  const ws = await workspace(source);
  const created = await source.request('POST', '/v1/invoices/', {
    token: ws.merchant.merchant_api_token,
    body: {
      amount: '100',
      currency: 'PHP',
      external_transaction_id: 'due-after-restore',
      expires_at: new Date(real + 120_000).toISOString(),
    },
  });
  expect(created.status, created.text).toBe(201);
  const snap = (await source.request('POST', `/_sandbox/workspaces/${ws.id}/snapshots`)).body
    .snapshot;
  const doc = (await source.request('GET', `/_sandbox/snapshots/${snap.id}/export`)).body;

  // Another sandbox: its due work has run once (its guard now waits for its own fixtures' work).
  expect((await target.request('GET', '/healthz')).status).toBe(200);
  const imported = await target.request('POST', '/_sandbox/snapshots', { body: doc });
  expect(imported.status, imported.text).toBe(201);
  const copy = await workspace(target, { from_snapshot: imported.body.snapshot.id });
  const row = () =>
    target.db
      .prepare('SELECT status, expires_at FROM invoices WHERE merchant_id = ?')
      .get(copy.merchant.id) as { status: string; expires_at: number };
  expect(row().status).toBe('pending');
  // Due on the copy's clock at expires_at: on the sandbox clock, that moved back by the copy's offset.
  const dueAt = row().expires_at - target.services.tenants.offsetOf(copy.id);
  expect(target.services.dueWork.nextDueAt()).toBeLessThanOrEqual(dueAt);

  real += 119_000;
  await target.request('GET', '/healthz');
  expect(row().status).toBe('pending');
  real += 1_001;
  // The first request after the expiry runs the due work before its handler: the row is expired.
  await target.request('GET', '/healthz');
  expect(row().status).toBe('expired');
});
