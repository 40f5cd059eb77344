import { beforeEach, describe, expect, it } from 'vitest';
import { errorCode } from '../error-code.js';
import { coinsPhClient, type CoinsPhClient, type CoinsPhFlavor } from './coins-ph.client.js';
import { expectAccepted, expectRefused, units, useWorkspaceServer } from './workspace.support.js';

/**
 * The order and outlet calls of the npm clients `coins-ph` 1.1.17 and `coins-ph-promise`, shaped as they
 * send them (GETs that carry a signed JSON body included), against a real server and a fresh workspace
 * per test: outlets, fees, categories, validate-field, sell orders to a bank and buy orders marked paid.
 */
const env = useWorkspaceServer();

const BANK = { account_number: '1234567890', account_name: 'Juan dela Cruz' };

describe.each<CoinsPhFlavor>(['coins-ph', 'coins-ph-promise'])(
  '%s: orders and outlets',
  (flavor) => {
    let client: CoinsPhClient;
    beforeEach(() => {
      client = coinsPhClient(flavor, {
        host: `${env.server.base}/`,
        key: env.ws.app.api_key,
        secret: env.ws.app.api_secret,
      });
    });

    async function pesoBalance(): Promise<bigint> {
      return units(
        (await client.cryptoAccounts({ currency: 'PBTC' })).body['crypto-accounts'][0].balance,
      );
    }

    /** The payout fee the outlet's fee table (read through the client) gives for an amount: amount × fee_percent + fee_amount. */
    async function payoutFee(outlet: string, amount: string): Promise<bigint> {
      const fees = await client.payoutOutletFees();
      expectAccepted(fees, 200);
      const a = units(amount);
      const bracket = fees.body['payout-outlet-fees'].find(
        (f: { payment_outlet: string; from_amount: string; until_amount: string }) =>
          f.payment_outlet === outlet && units(f.from_amount) <= a && a <= units(f.until_amount),
      );
      return (a * units(bracket.fee_percent)) / units('1') + units(bracket.fee_amount);
    }

    it('reads the payout and pay-in outlets, their fees and categories at the d/api paths, and validates a field', async () => {
      const payout = await client.payoutOutlets();
      expectAccepted(payout, 200);
      expect(payout.body['payout-outlets']).toContainEqual(
        expect.objectContaining({ id: 'bpi', outlet_category: 'bank' }),
      );
      expectAccepted(await client.payoutOutletFees(), 200);
      const categories = await client.payoutOutletCategories();
      expectAccepted(categories, 200);
      expect(
        categories.body['payout-outlet-categories'].map((c: { id: string }) => c.id),
      ).toContain('bank');
      const payin = await client.payinOutlets({ region: 'PH' });
      expectAccepted(payin, 200);
      expect(payin.body['payin-outlets'].map((o: { id: string }) => o.id)).toContain(
        'seven_connect_deposit',
      );
      expectAccepted(await client.payinOutletFees(), 200);
      expectAccepted(await client.payinOutletCategories(), 200);
      expect(client.sent.map((s) => s.url.slice(env.server.base.length))).toEqual([
        '/d/api/payout-outlets/',
        '/d/api/payout-outlet-fees/',
        '/d/api/payout-outlet-categories/',
        '/d/api/payin-outlets/?region=PH',
        '/d/api/payin-outlet-fees/',
        '/d/api/payin-outlet-categories/',
      ]);
      const valid = await client.validateField({
        payment_outlet: 'bpi',
        field: 'account_number',
        value: '1234-567-890',
      });
      expectAccepted(valid, 200);
      expect(valid.body['validate-field']).toMatchObject({ value: '1234567890', is_valid: true });
      const invalid = await client.validateField({
        payment_outlet: 'bpi',
        field: 'account_number',
        value: '12',
      });
      expectRefused(invalid, 400, 'Enter a valid account number (10 to 16 digits).');
    });

    it('sells to a bank outlet: the wallet loses amount + fee, and the order reads back by id and in the lists that send a body', async () => {
      const fee = await payoutFee('bpi', '1500');
      const created = await client.createSellorder({
        payment_outlet: 'bpi',
        amount: '1500',
        currency: 'PHP',
        pay_with_wallet: 'PBTC',
        external_transaction_id: `${flavor}-1`,
        fields: BANK,
      });
      expectAccepted(created, 201);
      const order = created.body.order;
      expect(order).toMatchObject({
        amount: '1500',
        delivery_status: 'pending_payment',
        payment_outlet: { id: 'bpi' },
        fields: BANK,
      });
      expect(order).not.toHaveProperty('fee');
      expect(units(String(created.headers['x-sandbox-fee']))).toBe(fee);
      expect(await pesoBalance()).toBe(units('100000') - units('1500') - fee);

      const got = await client.sellorder({ sellorder_id: order.id });
      expect(client.sent.at(-1)).toMatchObject({
        method: 'GET',
        url: `${env.server.base}/api/v2/sellorder/${order.id}?sellorder_id=${order.id}`,
        body: '"order"',
      });
      expectAccepted(got, 200);
      expect(got.body.order).toEqual(order);
      const page = await client.sellorder({ limit: 5, offset: 0 });
      expect(client.sent.at(-1)!.url).toBe(`${env.server.base}/api/v2/sellorder/?limit=5&offset=0`);
      expectAccepted(page, 200);
      expect(page.body).toEqual({
        orders: [expect.objectContaining(order)],
        meta: { pagination: { total: 1, limit: 5, offset: 0 } },
      });
      const all = await client.sellorder();
      expectAccepted(all, 200);
      expect(all.body.orders.map((o: { id: string }) => o.id)).toEqual([order.id]);
    });

    it('refuses a sell order above the balance (400, body.errors) and debits nothing', async () => {
      const res = await client.createSellorder({
        payment_outlet: 'bpi',
        amount: '99900',
        currency: 'PHP',
        pay_with_wallet: 'PBTC',
        fields: BANK,
      });
      expectRefused(res, 400, 'Insufficient balance.');
      expect(errorCode(res.body)).toBe('insufficient_balance');
      expect(await pesoBalance()).toBe(units('100000'));
      expect((await client.sellorder()).body.orders).toEqual([]);
    });

    it('buys: created pending_payment, marked paid with PUT, released by the clock into the wallet, in the history', async () => {
      const created = await client.createBuyorder({
        currency_amount: '500',
        payment_method: 'cash_payment',
        currency: 'PHP',
      });
      expectAccepted(created, 201);
      const order = created.body.order;
      expect(order).toMatchObject({
        status: 'pending_payment',
        currency_amount: '500',
        btc_released: '0',
      });
      const got = await client.buyorder({ buyorder_id: order.id });
      expect(client.sent.at(-1)!.url).toBe(
        `${env.server.base}/d/api/buyorder/${order.id}/?buyorder_id=${order.id}`,
      );
      expectAccepted(got, 200);
      expect(got.body.order.id).toBe(order.id);
      const listed = await client.buyorder();
      expectAccepted(listed, 200);
      expect(listed.body.orders.map((o: { id: string }) => o.id)).toEqual([order.id]);

      const paid = await client.markBuyorderPaid({ id: order.id });
      expect(client.sent.at(-1)).toMatchObject({
        method: 'PUT',
        url: `${env.server.base}/d/api/buyorder/${order.id}/`,
        body: undefined,
      });
      expectAccepted(paid, 200);
      expect(paid.body.order.status).toBe('payment_received');
      expect(await pesoBalance()).toBe(units('100000'));
      await env.server.advance(61);
      // Released: the wallet is credited btc_amount (the sandbox rate is 1, so the currency amount).
      expect(await pesoBalance()).toBe(units('100000') + units(order.btc_amount));

      const history = await client.transactionHistory();
      expect(client.sent.at(-1)).toMatchObject({
        method: 'GET',
        url: `${env.server.base}/api/v2/buyorder/`,
        body: '"orders"',
      });
      expectAccepted(history, 200);
      expect(history.body.orders).toEqual([
        expect.objectContaining({ id: order.id, status: 'released', btc_released: '500' }),
      ]);
    });
  },
);
