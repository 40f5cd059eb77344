import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAmount } from '../shared/money.js';
import { errorCode } from '../testing/error-code.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const customer = () => t.fixtures.customers[0]!;
const pesoWallet = (owner: { accounts: Array<{ id: string; currency: string }> }) =>
  owner.accounts.find((a) => a.currency === 'PHP')!.id;
const sellCount = () =>
  (t.db.prepare('SELECT COUNT(*) AS n FROM sell_orders').get() as { n: number }).n;
type Dev = ReturnType<typeof newDeveloper>;
const sell = (dev: Dev, body: Record<string, unknown>, o: { nonce?: string } = {}) =>
  t.signed('POST', '/v1/sellorder', {
    ...as(dev),
    ...o,
    body: { payment_outlet: 'coins_transfer', amount: '2500', currency: 'PHP', ...body },
  });
const statusOf = async (dev: Dev, id: string) =>
  (await t.signed('GET', `/v1/sellorder/${id}`, as(dev))).body.order.delivery_status;
/** One automatic step of the sell-order lifecycle (`--sellorder-delay`, 60 s by default). */
const step = () => {
  t.advance(60);
  t.sandbox.tick();
};

describe('sell orders through coins_transfer pay into a wallet', () => {
  it('debits the seller at once and credits the target wallet when the order completes on the sandbox clock', async () => {
    const dev = newDeveloper(t, { php: '3000' });
    const target = pesoWallet(customer());
    const before = balanceOf(t, target);
    const res = await sell(dev, { target_address: customer().email });
    expect(res.status).toBe(201);
    const order = res.body.order;
    // The cash-out tutorial's body, key for key (parity/recorded sellorders.har #2).
    expect(order).toEqual({
      amount: '2500',
      created_time: order.created_time,
      currency: 'PHP',
      delivery_status: 'pending_payment',
      external_transaction_id: null,
      fields: { target_address: customer().email },
      id: order.id,
      payment_outlet: {
        id: 'coins_transfer',
        name: 'Coins Transfer',
        payment_outlet_provider_id: null,
      },
      required_fields: [
        { legend: 'Target Address', name: 'target_address', value: customer().email },
      ],
    });
    expect(order.created_time).toMatch(/^\d+$/);
    expect([res.headers.get('x-sandbox-fee'), res.headers.get('x-sandbox-total')]).toEqual([
      '0',
      '2500',
    ]);
    expect(balanceOf(t, dev.php)).toBe(parseAmount('500'));
    expect(balanceOf(t, target)).toBe(before);
    t.assertLedger();
    step();
    expect(await statusOf(dev, order.id)).toBe('processing');
    expect(balanceOf(t, target)).toBe(before);
    step();
    expect(await statusOf(dev, order.id)).toBe('completed');
    expect(balanceOf(t, target)).toBe(before + parseAmount('2500'));
    expect(balanceOf(t, dev.php)).toBe(parseAmount('500'));
    t.assertLedger();
  });

  it('finds the wallet as a transfer does: by mobile number in any usual form, or by account id', async () => {
    const dev = newDeveloper(t);
    const other = newDeveloper(t, { php: '0' });
    const target = pesoWallet(customer());
    const before = balanceOf(t, target);
    const local = `0${customer().mobile_number.slice(3)}`;
    const ids: string[] = [];
    for (const address of [customer().mobile_number, local, other.php]) {
      const res = await sell(dev, { target_address: address, amount: '10' });
      expect(res.status, address).toBe(201);
      ids.push(res.body.order.id);
    }
    for (const id of ids)
      expect(
        (
          await t.request('POST', `/_sandbox/sellorders/${id}/status`, {
            body: { status: 'completed' },
          })
        ).status,
      ).toBe(200);
    expect(balanceOf(t, target)).toBe(before + parseAmount('20'));
    expect(balanceOf(t, other.php)).toBe(parseAmount('10'));
    t.assertLedger();
  });

  it('gives the money back to the seller when the order fails, and the target gets nothing', async () => {
    const dev = newDeveloper(t, { php: '3000' });
    const target = pesoWallet(customer());
    const before = balanceOf(t, target);
    const order = (await sell(dev, { target_address: customer().email })).body.order;
    step();
    const res = await t.request('POST', `/_sandbox/sellorders/${order.id}/status`, {
      body: { status: 'failed' },
    });
    expect(res.status).toBe(200);
    step();
    expect(await statusOf(dev, order.id)).toBe('failed');
    expect(balanceOf(t, dev.php)).toBe(parseAmount('3000'));
    expect(balanceOf(t, target)).toBe(before);
    t.assertLedger();
  });

  it("other outlets still pay out of the sandbox: nobody's wallet grows", async () => {
    const dev = newDeveloper(t, { php: '3000' });
    const target = pesoWallet(customer());
    const before = balanceOf(t, target);
    const res = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { outlet_id: 'bpi', amount: '100', target_address: customer().email },
    });
    expect(res.status).toBe(201);
    step();
    step();
    expect(await statusOf(dev, res.body.order.id)).toBe('completed');
    expect(balanceOf(t, target)).toBe(before);
    t.assertLedger();
  });
});

describe('coins_transfer refuses a target it cannot pay at creation (400, nothing written)', () => {
  /** What `POST /v3/transfers/` answers for the same target: the same 400 is expected. */
  async function transferAnswer(dev: Dev, target: string) {
    const res = await t.signed('POST', '/v3/transfers/', {
      ...as(dev),
      body: { account: dev.php, target_address: target, amount: '1' },
    });
    expect(res.status).toBe(400);
    return res.body;
  }

  it('refuses a missing, unknown, foreign-currency or own target with a field error on target_address', async () => {
    const dev = newDeveloper(t, { php: '3000' });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'This field is required.', 'validation_error'],
      [
        { target_address: 'nobody@nowhere.example' },
        'No wallet account, customer email or mobile number matches "nobody@nowhere.example".',
        'unknown_target',
      ],
      [
        { target_address: 'e'.repeat(32) },
        `No wallet account, customer email or mobile number matches "${'e'.repeat(32)}".`,
        'unknown_target',
      ],
      [{ target_address: dev.btc }, 'Target account holds BTC, not PHP.', 'validation_error'],
      [{ target_address: dev.php }, 'Cannot send to the same account.', 'validation_error'],
    ];
    for (const [body, message, code] of cases) {
      const res = await sell(dev, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors).toEqual({ target_address: [message] });
      expect(errorCode(res.body)).toBe(code);
    }
    const unknown = await sell(dev, { target_address: 'nobody@nowhere.example' });
    expect(unknown.body).toEqual(await transferAnswer(dev, 'nobody@nowhere.example'));
    expect(balanceOf(t, dev.php)).toBe(parseAmount('3000'));
    expect((await t.signed('GET', '/v2/sellorder', as(dev))).body.meta.pagination.total).toBe(0);
    t.assertLedger();
  });

  it("answers another tenant's customer exactly as an unknown one, both ways, as transfers do", async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const wsDev = { app: ws.app, php: pesoWallet(ws.app.owner), btc: '' } as Dev;
    const dev = newDeveloper(t, { php: '3000' });
    const count = sellCount();
    for (const [seller, target] of [
      [dev, ws.customer.email],
      [dev, ws.customer.accounts[0].id],
      [wsDev, customer().email],
      [wsDev, pesoWallet(customer())],
    ] as Array<[Dev, string]>) {
      const before = balanceOf(t, seller.php);
      const res = await sell(seller, { target_address: target, amount: '1' });
      expect(res.status, target).toBe(400);
      expect(res.body, target).toEqual(await transferAnswer(seller, target));
      expect(errorCode(res.body)).toBe('unknown_target');
      expect(balanceOf(t, seller.php)).toBe(before);
    }
    expect(sellCount()).toBe(count);
    t.assertLedger();
  });

  it('the refusal uses up its nonce like any other signed request that was answered', async () => {
    const dev = newDeveloper(t);
    const nonce = String(BigInt(Date.now()) * 1000n + 5_000_000_000n);
    expect((await sell(dev, { target_address: 'nobody@nowhere.example' }, { nonce })).status).toBe(
      400,
    );
    const replay = await sell(dev, { target_address: customer().email }, { nonce });
    expect(replay.status).toBe(401);
    expect(errorCode(replay.body)).toBe('invalid_nonce');
    expect(sellCount()).toBe((t.fixtures.sell_orders as unknown[]).length);
  });
});
