import { afterEach, describe, expect, it } from 'vitest';
import { startMerchantReceiver } from '../../examples/merchant-callback/server.js';
import { DEFAULT_RETRY_SCHEDULE } from '../config.js';
import { createTestApp } from '../testing/test-app.js';
import { until } from './callbacks.test-support.js';
import type { DeliveryRow } from './deliveries.repo.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the default retry schedule', () => {
  it('is 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([
      10,
      60,
      5 * 60,
      30 * 60,
      2 * 3600,
      6 * 3600,
      12 * 3600,
      24 * 3600,
    ]);
  });

  it('is what a sandbox started without --retry-schedule waits between attempts, then the delivery fails', async () => {
    // No retrySchedule override: the sandbox's own default is under test.
    const t = createTestApp();
    const receiver = await startMerchantReceiver({
      token: t.merchant.merchant_api_token,
      port: 0,
      respond: () => ({ status: 500 }),
    });
    cleanups.push(
      () => receiver.close(),
      () => t.close(),
    );
    t.services.identities.updateMerchant(t.merchant.id, { callback_url: receiver.url });
    t.sandbox.startBackground();
    const merchant = t.services.identities.merchantById(t.merchant.id)!;
    const inv = t.services.invoices.create(merchant, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: 'retry-default',
    });
    const delivery = () =>
      t.db.prepare('SELECT * FROM deliveries WHERE invoice_id = ?').get(inv.id) as DeliveryRow;
    const advance = (seconds: number) => {
      t.advance(seconds);
      t.sandbox.tick();
    };

    const delays = [10, 60, 300, 1800, 7200, 21600, 43200, 86400];
    for (const [i, delay] of delays.entries()) {
      const attempts = i + 1;
      const d = await until(
        delivery,
        (x) => x.status === 'pending' && x.attempts_count === attempts,
        `attempt ${attempts} recorded`,
      );
      // The next attempt is due exactly `delay` after the failed one was recorded.
      expect(d.next_attempt_at! - d.updated_at, `delay after attempt ${attempts}`).toBe(
        delay * 1_000_000,
      );
      // Half-way (seconds early even on a loaded machine): tick, which claims synchronously, claims nothing.
      const early = Math.floor(delay / 2);
      advance(early);
      expect(delivery(), `attempt ${attempts + 1} before it is due`).toMatchObject({
        status: 'pending',
        attempts_count: attempts,
      });
      advance(delay - early);
      expect(delivery(), `attempt ${attempts + 1} once due`).toMatchObject({
        status: 'delivering',
        attempts_count: attempts + 1,
      });
    }
    const last = await until(
      delivery,
      (x) => x.status === 'failed',
      'the delivery failed for good',
    );
    expect(last).toMatchObject({
      attempts_count: 9,
      next_attempt_at: null,
      last_error: 'receiver answered 500',
    });
    expect(receiver.received).toHaveLength(9);
  });
});
