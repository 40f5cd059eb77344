import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { developerError } from '../testing/error-code.js';
import { expectSecondsDuring } from '../testing/seconds.test-support.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp({ config: { buyOrderReleaseSeconds: 0 } });
});
afterEach(() => t.close());

async function placed(dev = newDeveloper(t, { php: '100' })) {
  const res = await t.signed('POST', '/api/v2/buyorder', {
    ...as(dev),
    body: { currency: 'PHP', btc_amount: 0.025, payment_method: 'bdo_deposit' },
  });
  expect(res.status).toBe(201);
  return { dev, id: res.body.order.id as string };
}

// The 2014 docs' item paths (parity/recorded buyorders.har#1..#3) and the cancel at v1.
describe('buy order items at /api/v2/buyorder/{id} (retrieve, mark paid, cancel)', () => {
  it('retrieves the same order as the v1 path, with and without the trailing slash', async () => {
    const { dev, id } = await placed();
    const v1 = await t.signed('GET', `/v1/buyorder/${id}`, as(dev));
    for (const path of [
      `/api/v2/buyorder/${id}`,
      `/api/v2/buyorder/${id}/`,
      `/v2/buyorder/${id}`,
    ]) {
      const v2 = await t.signed('GET', path, as(dev));
      expect(v2.status, path).toBe(200);
      expect(v2.body).toEqual(v1.body);
    }
    expect(v1.body.order).toMatchObject({
      payment_method: 'bdo_deposit',
      currency_amount: '0.025',
    });
  });

  it('marks an order paid with PUT at the v2 path, once', async () => {
    const { dev, id } = await placed();
    const paid = await expectSecondsDuring(
      t,
      () => t.signed('PUT', `/api/v2/buyorder/${id}`, as(dev)),
      (r) => r.body.order.marked_paid_time,
    );
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      order: {
        id,
        status: 'payment_received',
        marked_paid_time: expect.stringMatching(/^\d+$/),
        canceled_time: null,
      },
      success: true,
    });
    const again = await t.signed('PUT', `/api/v2/buyorder/${id}`, as(dev));
    expect(again.status).toBe(409);
  });

  it('cancels an unpaid order with DELETE (v2 and v1): canceled, canceled_time set, no money moves', async () => {
    for (const base of ['/api/v2/buyorder', '/v1/buyorder', '/d/api/buyorder']) {
      const { dev, id } = await placed();
      const before = balanceOf(t, dev.php);
      const res = await expectSecondsDuring(
        t,
        () => t.signed('DELETE', `${base}/${id}/`, as(dev)),
        (r) => r.body.order.canceled_time,
      );
      expect(res.status, base).toBe(200);
      expect(res.body).toMatchObject({
        order: {
          id,
          status: 'canceled',
          canceled_time: expect.stringMatching(/^\d+$/),
          marked_paid_time: null,
        },
        success: true,
      });
      expect(res.body.order.expiration_time).toMatch(/^\d+$/);
      const got = await t.signed('GET', `/v1/buyorder/${id}`, as(dev));
      expect(got.body).toEqual(res.body);
      // A canceled order can be neither paid nor canceled again.
      expect((await t.signed('PUT', `${base}/${id}`, as(dev))).status).toBe(409);
      expect((await t.signed('DELETE', `${base}/${id}`, as(dev))).body).toEqual(
        developerError('invalid_state_transition', {
          non_field_errors: ['Buy order is canceled and cannot move to canceled.'],
        }),
      );
      expect(balanceOf(t, dev.php)).toBe(before);
    }
    t.assertLedger();
  });

  it('refuses to cancel a paid order (409) and another owner’s or an unknown order (404), changing nothing', async () => {
    const { dev, id } = await placed();
    expect((await t.signed('PUT', `/api/v2/buyorder/${id}`, as(dev))).status).toBe(200);
    const paid = await t.signed('DELETE', `/api/v2/buyorder/${id}`, as(dev));
    expect(paid.status).toBe(409);
    expect(paid.body).toEqual(
      developerError('invalid_state_transition', {
        non_field_errors: ['Buy order is payment_received and cannot move to canceled.'],
      }),
    );
    const other = await placed();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expect((await t.signed(method, `/api/v2/buyorder/${other.id}`, as(dev))).status).toBe(404);
      expect((await t.signed(method, `/api/v2/buyorder/${'0'.repeat(32)}`, as(dev))).status).toBe(
        404,
      );
    }
    expect(
      (await t.signed('GET', `/v1/buyorder/${other.id}`, as(other.dev))).body.order.status,
    ).toBe('pending_payment');
    expect((await t.signed('GET', `/v1/buyorder/${id}`, as(dev))).body.order.status).toBe(
      'payment_received',
    );
    expect((await t.request('DELETE', `/api/v2/buyorder/${id}`)).status).toBe(401);
  });
});
