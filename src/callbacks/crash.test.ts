import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import {
  startMerchantReceiver,
  type MerchantReceiver,
} from '../../examples/merchant-callback/server.js';
import { createSandbox } from '../sandbox.js';
import { spawnServer, type SpawnedServer } from '../testing/spawn-server.js';
import { waitUntil } from '../testing/wait.js';

const PHP = 100_000_000n;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

/** A port with nothing listening on it (connections are refused). */
async function freePort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

/** A receiver that accepts connections and never answers: callbacks stay in flight. */
async function blackHole(port: number) {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await listen(server, port);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function control<T = any>(
  server: SpawnedServer,
  path: string,
  init?: RequestInit,
): Promise<T> {
  const res = await fetch(`${server.url}${path}`, init);
  expect(res.status, path).toBeLessThan(300);
  return (await res.json()) as T;
}

/** Poll the running server's delivery log until `ok` (bounded). */
async function until(
  server: SpawnedServer,
  query: string,
  ok: (b: { deliveries: any[]; meta: { total_count: number } }) => boolean,
  what: string,
) {
  return waitUntil(
    what,
    async () => {
      const body = await control<{ deliveries: any[]; meta: { total_count: number } }>(
        server,
        `/_sandbox/deliveries?per_page=100&${query}`,
      );
      return ok(body) && body;
    },
    { everyMs: 50 },
  );
}

it(
  'delivers every event, each at least once, after kill -9 with deliveries pending and in flight',
  { timeout: 90_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'sandbox.db');
    const port = await freePort();
    const args = [
      '--db',
      db,
      '--retry-schedule',
      Array(60).fill('1s').join(','),
      '--callback-timeout',
      '60s',
    ];

    // Events committed before the server ever runs: their deliveries are pending in the file.
    const prep = createSandbox({ config: { db, quiet: true } });
    const merchant = prep.fixtures.merchants[0]!;
    prep.modules.identities.api.updateMerchant(merchant.id, {
      callback_url: `http://127.0.0.1:${port}/callbacks`,
    });
    const row = prep.modules.identities.api.merchantById(merchant.id)!;
    const customer = prep.modules.payments.api.customer();
    for (let i = 0; i < 12; i++) {
      const inv = prep.modules.invoices.api.create(row, {
        amount: '20',
        currency: 'PHP',
        external_transaction_id: `crash-${i}`,
      });
      if (i % 3 === 0) prep.modules.payments.api.payFromWallet(inv.id, customer);
      if (i % 3 === 1) prep.modules.payments.api.payFromWallet(inv.id, customer, 5n * PHP);
    }
    await prep.close();

    // Receiver down (connection refused): attempts fail and are scheduled for retry.
    let server = await spawnServer(args);
    cleanups.push(() => server.kill9());
    await until(
      server,
      'status=pending',
      (b) => b.deliveries.some((d) => d.attempts_count >= 1),
      'failed attempts',
    );
    // Then it hangs: up to 8 callbacks are in flight when the server dies.
    const hole = await blackHole(port);
    cleanups.push(() => hole.close());
    const created = await control(server, '/v1/invoices/', {
      method: 'POST',
      headers: {
        authorization: `Token ${merchant.merchant_api_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ amount: 30, currency: 'PHP', external_transaction_id: 'crash-live' }),
    });
    expect(created.invoice.status).toBe('pending');
    await until(
      server,
      'status=delivering',
      (b) => b.meta.total_count === 8,
      '8 callbacks in flight',
    );
    await server.kill9();
    await hole.close();

    // The receiver is up again; the restarted server resumes from the file.
    const received: MerchantReceiver = await startMerchantReceiver({
      token: merchant.merchant_api_token,
      port,
    });
    cleanups.push(() => received.close());
    server = await spawnServer(args);
    await until(
      server,
      'status=delivered',
      (b) => b.meta.total_count === 21,
      'every delivery delivered',
    );
    expect(await server.stop()).toBe(0);

    const file = new Database(db, { readonly: true });
    cleanups.push(() => void file.close());
    const events = file.prepare('SELECT id FROM outbox_events ORDER BY seq').all() as Array<{
      id: string;
    }>;
    expect(events).toHaveLength(21); // 13 created, 4 fully paid, 4 partly paid
    const gotIds = new Set(received.received.filter((r) => r.status === 200).map((r) => r.eventId));
    expect(events.filter((e) => !gotIds.has(e.id))).toEqual([]);
    const states = file
      .prepare('SELECT status, COUNT(*) AS n FROM deliveries GROUP BY status')
      .all();
    expect(states).toEqual([{ status: 'delivered', n: 21 }]);
    // The attempts cut short by the crash are in the log as interrupted, not lost.
    const interrupted = file
      .prepare("SELECT COUNT(*) AS n FROM delivery_attempts WHERE error LIKE 'interrupted:%'")
      .get() as { n: number };
    expect(interrupted.n).toBe(8);
  },
);
