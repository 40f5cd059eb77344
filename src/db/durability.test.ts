import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFixtures } from '../fixtures/load.js';
import { spawnServer } from '../testing/spawn-server.js';

const ACKNOWLEDGED = 300;
const dir = mkdtempSync(join(tmpdir(), 'paysandbox-durability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('durability', () => {
  it('keeps every invoice that got a 201 after kill -9 during creation', async () => {
    const db = join(dir, 'kill9.db');
    const token = readFixtures().merchants[0]!.merchant_api_token;
    const server = await spawnServer(['--db', db, '--quiet']);
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    // Kill once ACKNOWLEDGED invoices got a 201, whatever time that takes: a count, not a throughput.
    let reached!: () => void;
    const enough = new Promise<void>((r) => (reached = r));
    const worker = async () => {
      while (!stop) {
        try {
          const res = await fetch(`${server.url}/v1/invoices/`, {
            method: 'POST',
            headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              amount: 10,
              currency: 'PHP',
              external_transaction_id: `kill9-${n++}`,
            }),
          });
          if (res.status === 201) {
            acknowledged.push(((await res.json()) as { invoice: { id: string } }).invoice.id);
            if (acknowledged.length === ACKNOWLEDGED) reached();
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    // In the middle of the stream: 8 workers still have requests in flight. The bound only keeps a
    // broken server from hanging the run; it is far above what a loaded 2-core machine needs.
    let bound: NodeJS.Timeout | undefined;
    const tooSlow = new Promise<'too slow'>(
      (r) => (bound = setTimeout(() => r('too slow'), 90_000)),
    );
    const outcome = await Promise.race([enough, tooSlow]);
    clearTimeout(bound);
    await server.kill9();
    stop = true;
    await Promise.all(workers);
    expect(
      outcome,
      `${acknowledged.length} of ${ACKNOWLEDGED} invoices acknowledged within 90 s`,
    ).not.toBe('too slow');
    expect(acknowledged.length).toBeGreaterThanOrEqual(ACKNOWLEDGED);

    // Restart on the same file: the sandbox recovers the WAL and serves every acknowledged invoice.
    const again = await spawnServer(['--db', db, '--quiet']);
    try {
      for (const id of acknowledged.slice(-50)) {
        const res = await fetch(`${again.url}/v1/invoices/${id}`, {
          headers: { authorization: `Token ${token}` },
        });
        expect(res.status, id).toBe(200);
      }
    } finally {
      await again.stop();
    }
    const check = new Database(db, { readonly: true });
    const stmt = check.prepare('SELECT 1 FROM invoices WHERE id = ?');
    const missing = acknowledged.filter((id) => !stmt.get(id));
    const events = (
      check
        .prepare("SELECT COUNT(*) AS n FROM outbox_events WHERE name = 'invoice.created'")
        .get() as { n: number }
    ).n;
    const invoices = (check.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n;
    check.close();
    expect(missing).toEqual([]);
    expect(events).toBe(invoices); // the outbox event committed with each invoice
  }, 150_000);

  it('closes the database cleanly on SIGTERM (no WAL left to recover)', async () => {
    const db = join(dir, 'sigterm.db');
    const server = await spawnServer(['--db', db]);
    const code = await server.stop();
    expect(code).toBe(0);
    expect(server.output()).toContain('SIGTERM: closing the database');
    const check = new Database(db, { readonly: true });
    expect(
      (
        check.prepare("SELECT value FROM meta WHERE key = 'fixtures_seed'").get() as {
          value: string;
        }
      ).value,
    ).toMatch(/^\d+$/);
    check.close();
  });
});
