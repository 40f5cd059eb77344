/**
 * Callback delivery: deliveries per second to a local receiver, and commit→receipt latency.
 *
 *   npx tsx bench/scenarios/callbacks.ts [--events 2000] [--db :memory:|file] [--rate N]
 *
 * An in-process sandbox (dispatcher running, default concurrency) sends `invoice.created` callbacks
 * to a plain node:http receiver on 127.0.0.1 that answers 200 `OK`. Invoices are created in batches
 * of 50 with a turn of the event loop in between, so commits and deliveries overlap like a busy shop;
 * latency runs from the commit of each event (outbox listener) to its arrival at the receiver, both
 * on this process's monotonic clock. Receiver and sandbox share one process and one core.
 * Without `--rate` the latency is mostly queueing (2,000 commits arrive faster than they drain);
 * `--rate N` paces the commits to N per second to see the latency of a shop below saturation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../src/db/open.js';
import { createSandbox, sharedSpec } from '../../src/sandbox.js';
import { itemAt, required } from '../../src/shared/defined.js';

export interface CallbackScenarioResult {
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /**
   * CPU time (user + system) of this process per event, from the first commit to the last receipt:
   * sandbox and receiver together, invoice creation included.
   */
  cpuUsPerEvent: number;
  /** The part of it spent in the (synchronous) invoice creates; the rest is mostly dispatch and receipt. */
  createCpuUsPerEvent: number;
}

const BATCH = 50;
const DEADLINE_MS = 120_000;

function quantile(sorted: number[], q: number): number {
  return sorted.length
    ? itemAt(sorted, Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1))
    : NaN;
}

/** `db: 'file'` puts the database in a temporary file (WAL, synchronous=NORMAL) instead of memory. */
export async function runCallbackScenario(opts: {
  events: number;
  db?: ':memory:' | 'file';
  /** Commits per second (default: as fast as they can be made, in batches of 50). */
  ratePerSecond?: number;
}): Promise<CallbackScenarioResult> {
  const events = opts.events;
  const dir = opts.db === 'file' ? mkdtempSync(join(tmpdir(), 'paysandbox-bench-')) : null;
  const dbPath = dir ? join(dir, 'sandbox.db') : ':memory:';

  const receivedAt = new Map<string, number>();
  let duplicates = 0;
  let allIn: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allIn = resolve));
  const receiver = createServer((req, res) => {
    const id = req.headers['x-sandbox-event-id'] as string | undefined;
    req.resume();
    req.once('end', () => {
      // At least once: a second copy of an event is not wrong, but in a run without faults it is waste.
      if (id && !receivedAt.has(id)) receivedAt.set(id, performance.now());
      else duplicates += 1;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      if (receivedAt.size >= events) allIn();
    });
  });
  receiver.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;

  const sandbox = createSandbox({
    db: openDatabase(dbPath),
    spec: sharedSpec(),
    config: { db: dbPath, quiet: true, retrySchedule: [1, 1, 1] },
  });
  const s = {
    ...sandbox.services,
    identities: sandbox.modules.identities.api,
    invoices: sandbox.modules.invoices.api,
  };
  const merchantId = itemAt(sandbox.fixtures.merchants, 0).id;
  s.identities.updateMerchant(merchantId, { callback_url: url });
  const merchant = required(s.identities.merchantById(merchantId), `merchant ${merchantId}`);
  const committedAt = new Map<string, number>();
  s.outbox.onAppend((e) => committedAt.set(e.id, performance.now()));
  sandbox.startBackground();

  const cpu0 = process.cpuUsage();
  let createCpuUs = 0;
  const started = performance.now();
  for (let i = 0; i < events; i++) {
    const c0 = process.cpuUsage();
    s.invoices.create(merchant, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: `bench-${i}`,
    });
    const c = process.cpuUsage(c0);
    createCpuUs += c.user + c.system;
    if (opts.ratePerSecond) {
      const due = started + ((i + 1) * 1000) / opts.ratePerSecond;
      const wait = due - performance.now();
      await new Promise((r) => (wait > 1 ? setTimeout(r, wait) : setImmediate(r)));
    } else if ((i + 1) % BATCH === 0) await new Promise((r) => setImmediate(r));
  }
  const timeout = new Promise<void>((r) => setTimeout(r, DEADLINE_MS).unref());
  await Promise.race([done, timeout]);
  const cpu = process.cpuUsage(cpu0);
  const finished = Math.max(...receivedAt.values(), started);
  // The receiver has answered the last callbacks; let the sandbox record those answers.
  const unsettled = s.db.prepare(
    "SELECT COUNT(*) AS n FROM deliveries WHERE status IN ('pending', 'delivering')",
  );
  for (let i = 0; i < 200 && (unsettled.get() as { n: number }).n > 0; i++)
    await new Promise((r) => setTimeout(r, 10));
  const failed = (
    s.db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE status <> 'delivered'").get() as {
      n: number;
    }
  ).n;
  const latencies = [...receivedAt]
    .map(([id, at]) => at - (committedAt.get(id) ?? at))
    .sort((a, b) => a - b);
  await sandbox.close();
  await new Promise<void>((r) => {
    receiver.close(() => r());
    receiver.closeAllConnections();
  });
  if (dir) rmSync(dir, { recursive: true, force: true });

  return {
    deliveriesPerSecond: Math.round((receivedAt.size / ((finished - started) / 1000)) * 10) / 10,
    p50Ms: Math.round(quantile(latencies, 0.5) * 100) / 100,
    p99Ms: Math.round(quantile(latencies, 0.99) * 100) / 100,
    errors: failed + duplicates + (events - receivedAt.size),
    cpuUsPerEvent: Math.round((cpu.user + cpu.system) / events),
    createCpuUsPerEvent: Math.round(createCpuUs / events),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '2000' },
      db: { type: 'string', default: ':memory:' },
      rate: { type: 'string' },
    },
  });
  const events = Number(values.events);
  if (!Number.isInteger(events) || events < 1)
    throw new Error('--events must be a positive integer');
  if (values.db !== ':memory:' && values.db !== 'file')
    throw new Error('--db must be :memory: or file');
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  if (rate !== undefined && !(rate > 0))
    throw new Error('--rate must be a positive number of events per second');
  const r = await runCallbackScenario({ events, db: values.db, ratePerSecond: rate });
  console.log(
    `callbacks: ${events} events to a local receiver (db ${values.db}${rate ? `, ${rate} commits/s` : ', burst'})`,
  );
  console.log(`  deliveries/s ${r.deliveriesPerSecond}`);
  console.log(`  commit→receipt p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`);
  console.log(`  errors ${r.errors}`);
  console.log(
    `  CPU per event ${r.cpuUsPerEvent} µs (invoice create ${r.createCpuUsPerEvent} µs, the rest dispatch and receipt)`,
  );
}
