import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { formatTimestamp } from '../shared/clock.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const create = (dev: ReturnType<typeof newDeveloper>, extra: Record<string, unknown>) =>
  t.signed('POST', '/v3/payment-requests/', {
    ...as(dev),
    body: {
      payer_contact_info: t.fixtures.customers[0]!.email,
      receiving_account: dev.php,
      amount: '12',
      message: 'by then',
      ...extra,
    },
  });

describe('a payment request’s expires_at (ISO 8601)', () => {
  it('is honoured to the microsecond, in any offset, and the request expires then on the sandbox clock', async () => {
    const dev = newDeveloper(t, { php: '0' });
    const now = t.services.clock.now();
    const at = now + 2 * 3600 * 1_000_000 + 123_456;
    const utc = formatTimestamp(at);
    // The same instant written at +08:00 (Manila), as a client in the Philippines would send it.
    const manila =
      new Date(Math.floor(at / 1000) + 8 * 3600_000).toISOString().slice(0, 19) +
      `.${utc.slice(20, 26)}+08:00`;
    const res = await create(dev, { expires_at: manila });
    expect(res.status).toBe(201);
    const request = res.body['payment-request'];
    expect(request.expires_at).toBe(utc);
    t.advance(2 * 3600 - 1);
    expect(
      (await t.signed('GET', `/v3/payment-requests/${request.id}/`, as(dev))).body[
        'payment-request'
      ].status,
    ).toBe('pending');
    t.advance(2);
    expect(
      (await t.signed('GET', `/v3/payment-requests/${request.id}/`, as(dev))).body[
        'payment-request'
      ].status,
    ).toBe('expired');
  });

  it('takes a Z time and a delta, and refuses one in the past, an unreadable one, or one beside expires_in_seconds (400, nothing stored)', async () => {
    const dev = newDeveloper(t, { php: '0' });
    const now = t.services.clock.now();
    const inADay = formatTimestamp(now + 86_400_000_000);
    expect((await create(dev, { expires_at: inADay })).body['payment-request'].expires_at).toBe(
      inADay,
    );
    const delta = (await create(dev, { expires_at: '1w' })).body['payment-request'];
    expect(Date.parse(delta.expires_at) - Date.parse(delta.created_at)).toBe(7 * 86_400_000);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ expires_at: formatTimestamp(now - 1_000_000) }, 'Expiry must be in the future.'],
      [
        { expires_at: 'next tuesday' },
        'Enter a valid date/time (ISO 8601) or a delta such as "1w 3d 2h 32m 5s".',
      ],
      [
        { expires_at: '2030-13-45T00:00:00Z' },
        'Enter a valid date/time (ISO 8601) or a delta such as "1w 3d 2h 32m 5s".',
      ],
      [
        { expires_at: inADay, expires_in_seconds: 3600 },
        'Send expires_at or expires_in_seconds, not both.',
      ],
    ];
    for (const [extra, message] of cases) {
      const res = await create(dev, extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.errors).toEqual({ expires_at: [message] });
    }
    expect((await t.signed('GET', '/v3/payment-requests/', as(dev))).body.meta.total_count).toBe(2);
  });
});
