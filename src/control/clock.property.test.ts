import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.js';
import { createTestApp, seededDatabaseFile, type TestApp } from '../testing/test-app.js';
import { waitUntil } from '../testing/wait.js';

/**
 * The sandbox clock as QA drives it, over HTTP: random sequences of advance, reset, real time passing and
 * restarts. After each step the clock reads real time + the offset it reports, and the work that is due
 * by that clock has happened: every invoice past its `expires_at` is expired (none before it), and every
 * callback retry that is due has been attempted.
 */
type Step =
  | { kind: 'create'; lifetime: number }
  | { kind: 'advance'; seconds: number }
  | { kind: 'reset' }
  | { kind: 'pass'; ms: number }
  | { kind: 'restart' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      lifetime: fc.integer({ min: 1, max: 1200 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      seconds: fc.integer({ min: 1, max: 1500 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('reset' as const) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('pass' as const),
      ms: fc.integer({ min: 0, max: 120_000 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('restart' as const) }), weight: 1 },
);

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Retries 30 s, 2 min, 10 min apart; the merchant's receiver always answers 500. */
const refuse = async () => new Response('down', { status: 500 });

const until = (what: string, done: () => boolean) => waitUntil(what, done, { everyMs: 10 });

describe('sandbox clock under advance, reset, passing time and restart', () => {
  it('advance 901 s, reset, advance 10 s: now is real time + 10 s, and retries still fire', async () => {
    const real = Date.now();
    const t = createTestApp({
      realNowMs: () => real,
      fetch: refuse,
      config: { retrySchedule: [30, 120, 600] },
    });
    t.sandbox.startBackground();
    try {
      await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 901 } });
      await t.request('POST', '/_sandbox/clock/reset');
      const clock = await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 10 } });
      expect(clock.body.offset_seconds).toBe(10);
      expect(Date.parse(clock.body.now)).toBe(real + 10_000);
      const created = await t.request('POST', '/v1/invoices/', {
        token: t.merchant.merchant_api_token,
        body: { amount: 1, currency: 'PHP', external_transaction_id: 'after-reset' },
      });
      expect(Date.parse(created.body.invoice.created_at)).toBe(real + 10_000);
      const attempts = t.db.prepare(
        'SELECT attempts_count AS n FROM deliveries ORDER BY seq DESC LIMIT 1',
      );
      await until('the first attempt was made', () => (attempts.get() as { n: number }).n === 1);
      await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 30 } });
      await until('the retry 30 s later was made', () => (attempts.get() as { n: number }).n === 2);
    } finally {
      await t.close();
    }
  });

  it('keeps now = real time + offset, and runs every due expiry and retry', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        // Each run's file starts as the migrated, seeded fixtures; restarts reopen it as the CLI would.
        const path = seededDatabaseFile(join(dir, `run-${run++}.db`));
        let real = Date.now();
        const open = () => {
          const app = createTestApp({
            db: openDatabase(path),
            realNowMs: () => real,
            fetch: refuse,
            config: { retrySchedule: [30, 120, 600] },
          });
          app.sandbox.startBackground();
          return app;
        };
        let t: TestApp = open();
        let offset = 0;
        let n = 0;
        try {
          for (const s of steps) {
            if (s.kind === 'create') {
              const res = await t.request('POST', '/v1/invoices/', {
                token: t.merchant.merchant_api_token,
                body: {
                  amount: 1,
                  currency: 'PHP',
                  external_transaction_id: `clock-${n++}`,
                  expires_at: `${s.lifetime}s`,
                },
              });
              expect(res.status).toBe(201);
            } else if (s.kind === 'advance') {
              const res = await t.request('POST', '/_sandbox/clock/advance', {
                body: { seconds: s.seconds },
              });
              expect(res.status).toBe(200);
              offset += s.seconds;
            } else if (s.kind === 'reset') {
              expect((await t.request('POST', '/_sandbox/clock/reset')).status).toBe(200);
              offset = 0;
            } else if (s.kind === 'pass') {
              real += s.ms;
            } else {
              await t.close();
              t = open();
            }

            const clock = await t.request('GET', '/_sandbox/clock');
            expect(clock.body.offset_seconds).toBe(offset);
            // Millisecond precision of the text form; the nudge for same-microsecond readings is far below it.
            expect(
              Math.abs(Date.parse(clock.body.now) - (real + offset * 1000)),
            ).toBeLessThanOrEqual(1);

            t.sandbox.tick();
            const now = t.services.clock.now();
            const invoices = t.db
              .prepare('SELECT status, expires_at FROM invoices')
              .all() as Array<{ status: string; expires_at: number }>;
            for (const inv of invoices) {
              if (inv.expires_at <= now) expect(inv.status).toBe('expired');
            }
            // Pending ones are those not yet due, unless they expired before a reset took the clock back.
            const pendingPastDue = invoices.filter(
              (i) => i.status === 'pending' && i.expires_at <= now,
            );
            expect(pendingPastDue).toEqual([]);
            const dueRetries = t.db.prepare(
              "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ?",
            );
            await until(
              'every due callback attempt was made',
              () => (dueRetries.get(now) as { n: number }).n === 0,
            );
          }
        } finally {
          await t.close();
        }
      }),
      { numRuns: 25 },
    );
  });
});
