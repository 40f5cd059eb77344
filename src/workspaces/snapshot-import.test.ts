import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  exportedScenario,
  newWorkspace,
  normalized,
  readWorkspace,
  rowCounts,
} from './snapshot.test-support.js';

/**
 * Importing a saved state: what a document takes and keeps (its refusals:
 * snapshot-import-refusals.test.ts, snapshot-import-field-rules.test.ts).
 */
let t: TestApp;
let doc: any;
// Real time stands still (the sandbox clock moves by its offset only): two copies restored and read one
// after the other count the same seconds left and the same order times.
const NOW_MS = Date.parse('2026-11-20T09:00:00.000Z');
// The document is exported once, from a sandbox of its own (as a team's committed scenario file is), and
// each test imports it into a fresh sandbox.
beforeAll(async () => {
  doc = await exportedScenario(NOW_MS);
});
beforeEach(() => {
  t = createTestApp({ realNowMs: () => NOW_MS });
});
afterEach(() => t.close());

const importing = (body: unknown) => t.request('POST', '/_sandbox/snapshots', { body });
const copy = () => JSON.parse(JSON.stringify(doc));

describe('snapshot documents', () => {
  it('an export is versioned, holds no internal numbers, and imports into a workspace that reads the same', async () => {
    expect(doc).toMatchObject({ format: 'paysandbox.snapshot', version: 1 });
    expect(
      doc.system_accounts
        .filter((a: any) => a.id.startsWith('system-funding'))
        .map((a: any) => a.currency),
    ).toContain('PHP');
    expect(doc.tables.invoices[1]).toMatchObject({
      status: 'pending',
      amount: '250.00000000',
      amount_received: '100.00000000',
    });
    const res = await importing(doc);
    expect(res.status, res.text).toBe(201);
    expect(res.body.snapshot).toMatchObject({
      workspace_id: null,
      source: 'import',
      taken_at: doc.taken_at,
    });
    expect(res.body.snapshot.counts.invoices).toBe(5);
    const a = await newWorkspace(t, { from_snapshot: res.body.snapshot.id });
    const b = await newWorkspace(t, { from_snapshot: res.body.snapshot.id });
    expect(normalized(await readWorkspace(t, a))).toEqual(normalized(await readWorkspace(t, b)));
    t.assertLedger();
  });

  it('a scenario whose customer email names no id restores 5 times in a row, and imports twice', async () => {
    const scenario = copy();
    const customer = scenario.tables.users.find((u: { kind: string }) => u.kind === 'customer');
    customer.email = 'qa.lead@example.ph';
    const first = await importing(scenario);
    expect(first.status, first.text).toBe(201);
    const again = await importing(scenario);
    expect(again.status, again.text).toBe(201);
    const emails: string[] = [];
    for (let i = 0; i < 5; i++) {
      const ws = await newWorkspace(t, { from_snapshot: first.body.snapshot.id });
      emails.push(ws.customer.email);
    }
    for (const email of emails) expect(email).toMatch(/^qa\.lead\+[0-9a-z]{8}@example\.ph$/);
    expect(new Set(emails).size).toBe(5);
    t.assertLedger();
  });

  it('an over-paid invoice is fully paid, as a payment leaves it: imported', async () => {
    const overpaid = copy();
    overpaid.tables.invoices[0].amount_received = '300.00000000';
    const res = await importing(overpaid);
    expect(res.status, res.text).toBe(201);
  });

  it("imports a document saved before the apps' business flag and daily limit: the defaults, not an error", async () => {
    expect(doc.tables.apps[0]).toMatchObject({ business_account: 1, daily_buy_limit: null });
    const limited = copy();
    for (const app of limited.tables.apps) {
      app.business_account = 0;
      app.daily_buy_limit = '400000.00000000';
    }
    const kept = await importing(limited);
    expect(kept.status, kept.text).toBe(201);
    expect((await newWorkspace(t, { from_snapshot: kept.body.snapshot.id })).app).toMatchObject({
      business_account: false,
      daily_buy_limit: '400000.00000000',
    });
    const old = copy();
    for (const app of old.tables.apps) {
      delete app.business_account;
      delete app.daily_buy_limit;
    }
    const res = await importing(old);
    expect(res.status, res.text).toBe(201);
    const ws = await newWorkspace(t, { from_snapshot: res.body.snapshot.id });
    expect(ws.app).toMatchObject({ business_account: true, daily_buy_limit: null });
  });

  it('imports a document saved before crypto routes existed (no crypto_routes table): none restored', async () => {
    const old = copy();
    delete (old.tables as Record<string, unknown>).crypto_routes;
    const res = await importing(old);
    expect(res.status, res.text).toBe(201);
    expect(res.body.snapshot.counts.crypto_routes).toBe(0);
    const ws = await newWorkspace(t, { from_snapshot: res.body.snapshot.id });
    expect(ws.app.api_key).toBeTruthy();
  });

  it('a snapshot stored before a field rule existed: its restore is the same 400, and makes no workspace', async () => {
    const res = await importing(doc);
    expect(res.status, res.text).toBe(201);
    const id = res.body.snapshot.id;
    const stored = JSON.parse(
      t.db.prepare('SELECT document FROM snapshots WHERE id = ?').pluck().get(id) as string,
    );
    stored.tables.invoices[0].metadata = '[1';
    t.db.prepare('UPDATE snapshots SET document = ? WHERE id = ?').run(JSON.stringify(stored), id);
    const before = rowCounts(t);
    const restore = await t.request('POST', '/_sandbox/workspaces', {
      body: { from_snapshot: id },
    });
    expect(restore.status, restore.text).toBe(400);
    expect(Object.keys(restore.body.errors)).toEqual(['tables.invoices[0].metadata']);
    expect(rowCounts(t)).toEqual(before);
  });

  it('a snapshot stored with a disabled application or merchant: its restore is a 400 naming the field, never a 500', async () => {
    for (const table of ['apps', 'merchants']) {
      const res = await importing(doc);
      expect(res.status, res.text).toBe(201);
      const id = res.body.snapshot.id;
      const stored = JSON.parse(
        t.db.prepare('SELECT document FROM snapshots WHERE id = ?').pluck().get(id) as string,
      );
      stored.tables[table][0].disabled = 1;
      t.db
        .prepare('UPDATE snapshots SET document = ? WHERE id = ?')
        .run(JSON.stringify(stored), id);
      const before = rowCounts(t);
      const restore = await t.request('POST', '/_sandbox/workspaces', {
        body: { from_snapshot: id },
      });
      expect(restore.status, restore.text).toBe(400);
      expect(restore.body.errors).toEqual({
        [`tables.${table}[0].disabled`]: [
          `Ensure this value is 0: the sandbox disables ${table === 'apps' ? 'an application' : 'a merchant'} only with its deleted or expired workspace, which cannot be saved.`,
        ],
      });
      expect(rowCounts(t)).toEqual(before);
    }
  });

  it('a body that is null is a 400 that says so', async () => {
    const before = rowCounts(t);
    const res = await t.request('POST', '/_sandbox/snapshots', { raw: 'null' });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual({
      non_field_errors: ['Invalid data. Expected a dictionary, but got null.'],
    });
    expect(rowCounts(t)).toEqual(before);
  });

  it('a body that is not a document is a 400 on its top-level fields', async () => {
    const res = await importing({ tables: {} });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(
      expect.arrayContaining(['format', 'version', 'taken_at', 'tables.users']),
    );
  });

  it('a document over 64 KiB is taken (up to 8 MiB)', async () => {
    const big = copy();
    big.tables.invoices[0].description = 'x'.repeat(1000);
    for (let i = 0; i < 20; i++)
      big.tables.deliveries.push({
        ...big.tables.deliveries[0],
        id: `${i}`.padStart(32, 'd'),
        body: JSON.stringify({ note: 'y'.repeat(4000) }),
      });
    expect(JSON.stringify(big).length).toBeGreaterThan(64 * 1024);
    const res = await importing(big);
    expect(res.status, res.text).toBe(201);
  });
});
