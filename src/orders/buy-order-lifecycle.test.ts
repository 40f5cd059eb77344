import { afterEach, describe, expect, it } from 'vitest';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { errorCode, developerError } from '../testing/error-code.js';
import { expectSecondsDuring } from '../testing/seconds.test-support.js';

let t: TestApp;
afterEach(() => t?.close());

const CONFLICT = (from: string, to: string) =>
  developerError('invalid_state_transition', {
    non_field_errors: [`Buy order is ${from} and cannot move to ${to}.`],
  });

/**
 * A developer with a fresh PHP wallet and a buy order placed through `POST /api/v2/buyorder/` as the npm client
 * does: `created` is the create's answer, `order` the retrieve's (with expiration_time and instructions).
 */
async function placed(
  body: Record<string, unknown> = {
    currency_amount: '1500',
    payment_method: 'cash_payment',
    currency: 'PHP',
  },
) {
  const dev = newDeveloper(t, { php: '100' });
  const res = await t.signed('POST', '/api/v2/buyorder/', { ...as(dev), body });
  expect(res.status).toBe(201);
  const got = await t.signed('GET', `/v1/buyorder/${res.body.order.id}`, as(dev));
  expect(got.status).toBe(200);
  return { dev, created: res.body.order, order: got.body.order, before: balanceOf(t, dev.php) };
}

const setStatus = (id: string, status: string) =>
  t.request('POST', `/_sandbox/buyorders/${id}/status`, { body: { status } });
const markPaid = (dev: ReturnType<typeof newDeveloper>, id: string) =>
  t.signed('PUT', `/d/api/buyorder/${id}/`, as(dev));

describe('buy order lifecycle', () => {
  it('is created pending_payment with the real fields, and listed on v1 and v2', async () => {
    t = createTestApp();
    const { dev, created, order } = await placed();
    // The recorded create answer's keys, exactly (parity/recorded buyorders.har#0, #4): no
    // expiration_time, no instructions; the retrieve adds them (buyorders.har#1).
    const { expiration_time, instructions, ...rest } = order;
    expect(created).toEqual(rest);
    expect(Object.keys(created).sort()).toEqual([
      'btc_amount',
      'btc_released',
      'canceled_time',
      'created_at',
      'currency_amount',
      'id',
      'marked_paid_time',
      'payment_method',
      'rate',
      'status',
      'wallet_address',
    ]);
    expect([typeof expiration_time, typeof instructions]).toEqual(['string', 'string']);
    expect(order).toEqual({
      btc_amount: '1500',
      btc_released: '0',
      canceled_time: null,
      created_at: order.created_at,
      currency_amount: '1500',
      expiration_time: order.expiration_time,
      id: order.id,
      instructions: order.instructions,
      marked_paid_time: null,
      payment_method: 'cash_payment',
      rate: '1',
      status: 'pending_payment',
      wallet_address: t.services.ledger.get(dev.php)!.default_address,
    });
    expect(order.instructions).toBe(
      `Pay 1500 PHP in cash at 7-Eleven, M Lhuillier, Cebuana Lhuillier or Bayad Center. Reference number: ${order.id}.`,
    );
    expect(Number(order.expiration_time) - Number(order.created_at)).toBe(86400);
    for (const path of ['/v1/buyorder?limit=5&offset=0', '/api/v2/buyorder/?limit=5&offset=0']) {
      const list = await t.signed('GET', path, as(dev));
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        orders: [order],
        meta: { pagination: { total: 1, limit: 5, offset: 0 } },
      });
    }
  });

  it('takes amount or btc_amount, PBTC for the peso wallet and a pay-in outlet by id or collector', async () => {
    t = createTestApp();
    const seven = t.fixtures.payin_outlets.find((o) => o.collector === 'seven_connect_deposit')!;
    const byId = await placed({ amount: 250, payment_method: seven.id, currency: 'PBTC' });
    expect(byId.order).toMatchObject({
      payment_method: 'seven_connect_deposit',
      currency_amount: '250',
      wallet_address: t.services.ledger.get(byId.dev.php)!.default_address,
    });
    expect(byId.order.instructions).toContain(seven.instructions);
    expect(byId.order.instructions).toContain(`Reference number: ${byId.order.id}.`);
    const both = await placed({
      currency_amount: '10',
      btc_amount: '10.0',
      payment_method: 'bayad_deposit',
    });
    expect(both.order).toMatchObject({ payment_method: 'bayad_deposit', btc_amount: '10' });
    // The recorded buy orders' bank deposits are payment methods too.
    for (const method of ['bdo_deposit', 'bpi_deposit']) {
      const bank = await placed({
        currency_amount: '624',
        payment_method: method,
        currency: 'PHP',
      });
      expect(bank.order).toMatchObject({
        payment_method: method,
        currency_amount: '624',
        status: 'pending_payment',
      });
      expect(bank.order.instructions).toMatch(
        /^Deposit 624 PHP to our BPI|^Deposit 624 PHP to our BDO/,
      );
    }
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    t = createTestApp();
    const dev = newDeveloper(t);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ payment_method: 'cash_payment' }, 'currency_amount', 'This field is required.'],
      [{ currency_amount: '10' }, 'payment_method', 'This field is required.'],
      [
        { currency_amount: '10', payment_method: 'coins_peso_wallet' },
        'payment_method',
        '"coins_peso_wallet" is not a valid choice.',
      ],
      [
        { currency_amount: '10', payment_method: 'cash_payment', currency: 'USD' },
        'currency',
        '"USD" is not a valid choice.',
      ],
      [
        { currency_amount: '10', amount: '11', payment_method: 'cash_payment' },
        'amount',
        'Must equal currency_amount (the sandbox rate is 1).',
      ],
      [
        { currency_amount: '-5', payment_method: 'cash_payment' },
        'currency_amount',
        'Ensure this value is greater than 0.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.signed('POST', '/v2/buyorder', { ...as(dev), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[field]).toEqual([message]);
    }
    expect((await t.signed('GET', '/v1/buyorder', as(dev))).body.meta.pagination.total).toBe(0);
    expect(
      (
        await t.request('POST', '/v2/buyorder', {
          body: { currency_amount: '1', payment_method: 'cash_payment' },
        })
      ).status,
    ).toBe(401);
  });

  it('marked paid with PUT, then released by the clock after --buyorder-delay: the wallet is credited once', async () => {
    t = createTestApp({ config: { buyOrderReleaseSeconds: 60 } });
    const { dev, order, before } = await placed();
    const paid = await expectSecondsDuring(
      t,
      () => markPaid(dev, order.id),
      (r) => r.body.order.marked_paid_time,
    );
    expect(paid.status).toBe(200);
    expect(paid.body.order).toMatchObject({
      status: 'payment_received',
      marked_paid_time: expect.stringMatching(/^\d+$/),
    });
    t.advance(59);
    t.sandbox.tick();
    expect((await t.signed('GET', `/v1/buyorder/${order.id}`, as(dev))).body.order.status).toBe(
      'payment_received',
    );
    expect(balanceOf(t, dev.php)).toBe(before);
    t.advance(1);
    t.sandbox.tick();
    t.sandbox.tick();
    const released = (await t.signed('GET', `/v1/buyorder/${order.id}`, as(dev))).body.order;
    expect(released).toMatchObject({
      status: 'released',
      marked_paid_time: paid.body.order.marked_paid_time,
      canceled_time: null,
    });
    expect(balanceOf(t, dev.php)).toBe(before + parseAmount('1500'));
    t.assertLedger();
    // Paying again, or paying someone else's order, changes nothing.
    expect((await markPaid(dev, order.id)).body).toEqual(CONFLICT('released', 'payment_received'));
    expect((await markPaid(dev, order.id)).status).toBe(409);
    const other = newDeveloper(t);
    expect((await markPaid(other, order.id)).status).toBe(404);
    expect(balanceOf(t, dev.php)).toBe(before + parseAmount('1500'));
  });

  it('--buyorder-delay 0 leaves release to the control API, which credits the wallet', async () => {
    t = createTestApp({ config: { buyOrderReleaseSeconds: 0 } });
    const { dev, order, before } = await placed();
    // Not paid yet: a release is refused.
    // The control API keeps its own code in `error_codes`.
    expect((await setStatus(order.id, 'released')).body).toEqual({
      error_codes: ['invalid_state_transition'],
      errors: CONFLICT('pending_payment', 'released').errors,
    });
    expect((await markPaid(dev, order.id)).status).toBe(200);
    t.advance(3600);
    t.sandbox.tick();
    expect(balanceOf(t, dev.php)).toBe(before);
    const res = await setStatus(order.id, 'released');
    expect(res.status).toBe(200);
    expect(res.body.order.status).toBe('released');
    expect(balanceOf(t, dev.php)).toBe(before + parseAmount('1500'));
    expect((await setStatus(order.id, 'canceled')).status).toBe(409);
    t.assertLedger();
  });

  it('canceled by the control API (pending or paid): canceled_time set, no money, terminal', async () => {
    t = createTestApp();
    const { dev, order, before } = await placed();
    const res = await expectSecondsDuring(
      t,
      () => setStatus(order.id, 'canceled'),
      (r) => r.body.order.canceled_time,
    );
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({
      status: 'canceled',
      canceled_time: expect.stringMatching(/^\d+$/),
      marked_paid_time: null,
    });
    expect((await markPaid(dev, order.id)).body).toEqual(CONFLICT('canceled', 'payment_received'));
    const second = await placed();
    await markPaid(second.dev, second.order.id);
    expect((await setStatus(second.order.id, 'canceled')).body.order.status).toBe('canceled');
    t.advance(3600);
    t.sandbox.tick();
    expect(balanceOf(t, dev.php)).toBe(before);
    expect(balanceOf(t, second.dev.php)).toBe(second.before);
    t.assertLedger();
  });

  it('expires (escrow_expired) when its expiration time passes unpaid, dated then; a paid one does not', async () => {
    t = createTestApp();
    const unpaid = await placed();
    const paid = await placed();
    await markPaid(paid.dev, paid.order.id);
    t.advance(86_399);
    t.sandbox.tick();
    expect(
      (await t.signed('GET', `/v1/buyorder/${unpaid.order.id}`, as(unpaid.dev))).body.order.status,
    ).toBe('pending_payment');
    t.advance(1);
    t.sandbox.tick();
    expect(
      (await t.signed('GET', `/v1/buyorder/${unpaid.order.id}`, as(unpaid.dev))).body.order.status,
    ).toBe('escrow_expired');
    expect((await markPaid(unpaid.dev, unpaid.order.id)).body).toEqual(
      CONFLICT('escrow_expired', 'payment_received'),
    );
    expect(
      (await t.signed('GET', `/v1/buyorder/${paid.order.id}`, as(paid.dev))).body.order.status,
    ).toBe('released');
    expect(balanceOf(t, unpaid.dev.php)).toBe(unpaid.before);
    // The control API can expire one too, but never a paid one.
    const third = await placed();
    expect((await setStatus(third.order.id, 'escrow_expired')).body.order.status).toBe(
      'escrow_expired',
    );
    const fourth = await placed();
    await markPaid(fourth.dev, fourth.order.id);
    expect((await setStatus(fourth.order.id, 'escrow_expired')).status).toBe(409);
    t.assertLedger();
  });

  it('the control status call answers 404 for an unknown order and 400 for an unknown status', async () => {
    t = createTestApp();
    const { order } = await placed();
    expect((await setStatus('0'.repeat(32), 'released')).status).toBe(404);
    const bad = await setStatus(order.id, 'pending_payment');
    expect(bad.status).toBe(400);
    expect(errorCode(bad.body)).toBe('validation_error');
  });
});
