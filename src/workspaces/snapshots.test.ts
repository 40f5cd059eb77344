import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { buildScenario, newWorkspace, takeSnapshot } from './snapshot.test-support.js';

let t: TestApp;
afterEach(() => t?.close());

describe('saved states', () => {
  it("lists a workspace's snapshots newest first, also once it is deleted; an unknown workspace or snapshot is 404", async () => {
    t = createTestApp();
    const ws = await newWorkspace(t);
    const first = await takeSnapshot(t, ws.id);
    t.advance(1);
    const second = await takeSnapshot(t, ws.id);
    const list = await t.request('GET', `/_sandbox/workspaces/${ws.id}/snapshots`);
    expect(list.body.snapshots.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
    expect(list.body.meta).toEqual({ total_count: 2, next_page: null, previous_page: null });
    expect(
      (await t.request('POST', '/_sandbox/workspaces/0123456789abcdef0123456789abcdef/snapshots'))
        .status,
    ).toBe(404);
    expect(
      (await t.request('GET', '/_sandbox/snapshots/0123456789abcdef0123456789abcdef/export'))
        .status,
    ).toBe(404);
    const bad = await t.request('POST', '/_sandbox/workspaces', {
      body: { from_snapshot: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ from_snapshot: ['No snapshot has this id.'] });
    expect(
      (await t.request('GET', '/_sandbox/workspaces/0123456789abcdef0123456789abcdef/snapshots'))
        .status,
    ).toBe(404);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    expect((await t.request('POST', `/_sandbox/workspaces/${ws.id}/snapshots`)).status).toBe(404);
    // A snapshot outlives its workspace: still listed under it, and exported.
    const kept = await t.request('GET', `/_sandbox/workspaces/${ws.id}/snapshots`);
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.snapshots.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
    expect((await t.request('GET', `/_sandbox/snapshots/${first.id}/export`)).status).toBe(200);
  });

  it('GET /_sandbox/snapshots lists every snapshot, imported ones too, newest first and page by page', async () => {
    t = createTestApp();
    const ws = await newWorkspace(t);
    const taken = await takeSnapshot(t, ws.id);
    const doc = (await t.request('GET', `/_sandbox/snapshots/${taken.id}/export`)).body;
    t.advance(1);
    const imported = await t.request('POST', '/_sandbox/snapshots', { body: doc });
    expect(imported.status, imported.text).toBe(201);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    t.advance(1);
    const later = await takeSnapshot(t, (await newWorkspace(t)).id);

    const all = await t.request('GET', '/_sandbox/snapshots');
    expect(all.status, all.text).toBe(200);
    expect(all.body.snapshots.map((s: { id: string }) => s.id)).toEqual([
      later.id,
      imported.body.snapshot.id,
      taken.id,
    ]);
    expect(all.body.snapshots[1]).toMatchObject({ workspace_id: null, source: 'import' });
    expect(all.body.meta).toEqual({ total_count: 3, next_page: null, previous_page: null });

    const page2 = await t.request('GET', '/_sandbox/snapshots?per_page=2&page=2');
    expect(page2.body.snapshots.map((s: { id: string }) => s.id)).toEqual([taken.id]);
    expect(page2.body.meta).toEqual({ total_count: 3, next_page: null, previous_page: 1 });
    const onlyImported = await t.request('GET', '/_sandbox/snapshots?source=import');
    expect(onlyImported.body.snapshots.map((s: { id: string }) => s.id)).toEqual([
      imported.body.snapshot.id,
    ]);
    expect(onlyImported.body.meta.total_count).toBe(1);
    const bad = await t.request('GET', '/_sandbox/snapshots?source=nope');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['source']);
  });

  it('snapshots are stored in the database file and survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-snap-'));
    try {
      const file = join(dir, 'sandbox.db');
      t = createTestApp({ db: openDatabase(file) });
      const ws = await buildScenario(t);
      const snap = await takeSnapshot(t, ws.id);
      const exported = (await t.request('GET', `/_sandbox/snapshots/${snap.id}/export`)).body;
      await t.close();
      t = createTestApp({ db: openDatabase(file) });
      expect(
        (await t.request('GET', `/_sandbox/workspaces/${ws.id}/snapshots`)).body.snapshots,
      ).toEqual([snap]);
      expect((await t.request('GET', `/_sandbox/snapshots/${snap.id}/export`)).body).toEqual(
        exported,
      );
      await newWorkspace(t, { from_snapshot: snap.id });
      t.assertLedger();
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
