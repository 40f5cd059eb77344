import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

// A clock advance does all the work that is due, however much: more rows than one batch of the
// repositories (500) are due at once here.
let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const count = (sql: string, ...args: unknown[]) =>
  (t.db.prepare(sql).get(...args) as { n: number }).n;
const advance = (seconds: number) =>
  t.request('POST', '/_sandbox/clock/advance', { body: { seconds } });

it('ends all 700 workspaces due at one advance: after advance + reset none of their apps authenticates', async () => {
  const workspaces = t.sandbox.modules.control.api.workspaces;
  const first = workspaces.create(60);
  // 698 more (each with an app), written straight to the tables: fast, and due before the last one.
  const owner = t.fixtures.developers[0]!.app;
  const ownerId = (
    t.db.prepare('SELECT owner_id FROM apps WHERE api_key = ?').get(owner.api_key) as {
      owner_id: string;
    }
  ).owner_id;
  const ws = t.db.prepare(
    'INSERT INTO workspaces (id, created_at, expires_at, deleted_at) VALUES (?, ?, ?, NULL)',
  );
  const app = t.db.prepare(
    `INSERT INTO apps (api_key, api_secret, name, owner_id, mfa_whitelisted, otp_secret, workspace_id, created_at)
     VALUES (?, 'secret', 'bulk', ?, 1, 'JBSWY3DPEHPK3PXP', ?, ?)`,
  );
  const now = t.services.clock.now();
  t.db.transaction(() => {
    for (let i = 0; i < 698; i++) {
      const id = `bulk${String(i).padStart(28, '0')}`;
      ws.run(id, now, now + 30_000_000);
      app.run(`bulk-key-${i}`, ownerId, id, now);
    }
  })();
  const created = [first, workspaces.create(60)];
  expect((await advance(61)).status).toBe(200);
  expect((await t.request('POST', '/_sandbox/clock/reset')).status).toBe(200);
  expect(count('SELECT COUNT(*) AS n FROM workspaces WHERE deleted_at IS NULL')).toBe(0);
  expect(
    count('SELECT COUNT(*) AS n FROM apps WHERE workspace_id IS NOT NULL AND disabled = 0'),
  ).toBe(0);
  for (const w of created) {
    const res = await t.signed('GET', '/v3/crypto-accounts/', {
      key: w.app.api_key,
      secret: w.app.api_secret,
    });
    expect(res.status).toBe(401);
  }
});

it('expires all 600 invoices due at one advance, not the first 500', async () => {
  const merchant = t.services.identities.merchantById(t.merchant.id)!;
  t.services.unitOfWork(() => {
    for (let i = 0; i < 600; i++)
      t.services.invoices.create(merchant, {
        amount: 10,
        currency: 'PHP',
        external_transaction_id: `due-${i}`,
        expires_at: '1m',
      });
  });
  expect(
    count(
      "SELECT COUNT(*) AS n FROM invoices WHERE status = 'pending' AND external_transaction_id LIKE 'due-%'",
    ),
  ).toBe(600);
  await advance(61);
  expect(
    count(
      "SELECT COUNT(*) AS n FROM invoices WHERE status = 'pending' AND external_transaction_id LIKE 'due-%'",
    ),
  ).toBe(0);
  expect(
    count(
      "SELECT COUNT(*) AS n FROM invoices WHERE status = 'expired' AND external_transaction_id LIKE 'due-%'",
    ),
  ).toBe(600);
});
