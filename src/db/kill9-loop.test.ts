import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { readFixtures } from '../fixtures/load.js';
import { checkFile } from '../testing/kill9/kill9.checks.js';
import { newWriteLog, writeWorker, type Credentials } from '../testing/kill9/kill9.writes.js';
import { spawnServer, type SpawnedServer } from '../testing/spawn-server.js';
import { errorCode } from '../testing/error-code.js';

// Kill -9 in the middle of mixed writes, restart on the same file, check, again. The kills are
// counted, not timed: KILL9_CYCLES (default 5) and a kill after a random number of acknowledged
// writes, so a slow machine runs the same loop, only slower. `KILL9_CYCLES=30 npx vitest run
// src/db/kill9-loop.test.ts` is the long mode.
const CYCLES = Number(process.env.KILL9_CYCLES ?? 5);
const WORKERS = 4;
const SEED = Number(process.env.KILL9_SEED ?? 9);

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-kill9-loop-'));
let server: SpawnedServer | undefined;
afterAll(async () => {
  await server?.kill9();
  rmSync(dir, { recursive: true, force: true });
});

async function json(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** A small seeded PRNG (uniform in [0, 1)): fast-check's doubles lean to edge values on purpose. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A port free a moment ago: the sandbox restarts on the same one, so signed URLs stay the same. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Whitelisted apps with funded wallets (one per worker) and a customer wallet, made once. */
async function credentials(base: string): Promise<Credentials> {
  const fx = readFixtures();
  const customer = fx.customers[0]!;
  const apps: Credentials['apps'] = [];
  for (let i = 0; i < WORKERS; i++) {
    const r = await json('POST', `${base}/_sandbox/apps`, {
      name: `kill9 ${i}`,
      mfa_whitelisted: true,
      balance: '1000000',
    });
    expect(r.status).toBe(201);
    const wallet = r.body.app.owner.accounts.find(
      (a: { currency: string }) => a.currency === 'PHP',
    );
    apps.push({ key: r.body.app.api_key, secret: r.body.app.api_secret, account: wallet.id });
  }
  const customerAccount = customer.accounts.find((a) => a.currency === 'PHP')!.id;
  expect(
    (await json('POST', `${base}/_sandbox/accounts/${customerAccount}/fund`, { amount: '1000000' }))
      .status,
  ).toBe(200);
  return {
    merchantToken: fx.merchants[1]!.merchant_api_token,
    apps,
    customerEmail: customer.email,
    customerAccount,
    outletId: fx.payout_outlets[0]!.id,
  };
}

it(
  `keeps every acknowledged write, a balanced ledger, the outbox and the nonces through ${CYCLES} kill -9`,
  { timeout: 60_000 + CYCLES * 40_000 },
  async () => {
    const db = join(dir, 'sandbox.db');
    const args = ['--db', db, '--quiet', '--port', String(await freePort())];
    const log = newWriteLog();
    // Where in each cycle the kill lands, and which writes run: from the seed, so a failure reproduces.
    const plan = fc.sample(
      fc.record({ killAfter: fc.integer({ min: 15, max: 80 }), seed: fc.integer() }),
      { seed: SEED, numRuns: CYCLES },
    );
    const started = performance.now();
    server = await spawnServer(args, { timeoutMs: 60_000 });
    const creds = await credentials(server.url);
    let replays = 0;

    for (const [cycle, { killAfter, seed }] of plan.entries()) {
      const before = log.acks.length;
      const random = mulberry32(seed);
      let stop = false;
      const base = server.url;
      const workers = Array.from({ length: WORKERS }, (_, w) =>
        writeWorker(base, creds, w, log, () => stop, random),
      );
      const deadline = Date.now() + 20_000;
      while (log.acks.length - before < killAfter && Date.now() < deadline)
        await new Promise((res) => setTimeout(res, 5));
      await server.kill9(); // writes are in flight: some answered, some not yet
      stop = true;
      await Promise.all(workers);
      expect(
        log.acks.length - before,
        `cycle ${cycle}: acknowledged writes before the kill`,
      ).toBeGreaterThanOrEqual(killAfter);

      // The file as the crash left it (opening it recovers the WAL, as the restart does).
      const check = checkFile(db, log);
      expect(check.missing, `cycle ${cycle}: acknowledged writes lost`).toEqual([]);
      expect(check.missingEvents, `cycle ${cycle}: outbox events lost`).toEqual([]);
      expect(check.nonceRegressions, `cycle ${cycle}: accepted nonces forgotten`).toEqual([]);
      expect(check.ledger, `cycle ${cycle}: ledger`).toBeNull();

      // Restart on the same file: every accepted signed write replayed byte for byte is refused.
      server = await spawnServer(args, { timeoutMs: 60_000 });
      for (const w of log.lastSigned.values()) {
        expect(server.url + w.path).toBe(w.url);
        const replay = await json('POST', w.url, JSON.parse(w.body), w.headers);
        expect(replay.status, `replay of nonce ${w.nonce} for ${w.key}`).toBe(401);
        expect(errorCode(replay.body)).toBe('invalid_nonce');
        replays++;
      }
      const sample = log.acks.filter((a) => a.kind === 'invoice').slice(-5);
      for (const a of sample) {
        const res = await json(
          'GET',
          `${server.url}/v1/invoices/${a.kind === 'invoice' ? a.id : ''}`,
          undefined,
          { authorization: `Token ${creds.merchantToken}` },
        );
        expect(res.status, `invoice ${a.kind === 'invoice' ? a.id : ''} after restart`).toBe(200);
      }
    }
    const kinds = Object.fromEntries(
      ['invoice', 'payment', 'sellOrder', 'transfer', 'funding'].map((k) => [
        k,
        log.acks.filter((a) => a.kind === k).length,
      ]),
    );
    console.log(
      `kill -9 loop: ${CYCLES} kills, ${log.acks.length} acknowledged writes checked ${JSON.stringify(kinds)}, ${replays} nonce replays refused, ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const k of Object.keys(kinds))
      expect(kinds[k], `${k} writes acknowledged over the loop`).toBeGreaterThan(0);
  },
);
