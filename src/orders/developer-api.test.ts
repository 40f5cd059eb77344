import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unimplementedOperations } from '../http/create-app.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

/** The operations of issue 5 (docs/design.md#public-api developer rows, #control-api order rows). */
const OPERATIONS = [
  'createSellOrder',
  'getSellOrder',
  'listSellOrders',
  'getBuyOrder',
  'listBuyOrders',
  'createTransfer',
  'getTransfer',
  'listTransfers',
  'listPayoutOutlets',
  'listPartnerPayoutOutletFees',
  'quotePartnerPayoutOutletFee',
  'createBuyOrder',
  'setSellOrderStatus',
];

describe('developer API against the document', () => {
  it('binds a handler to every developer-API and order-control operation (no 501 left)', () => {
    for (const id of OPERATIONS) expect(t.sandbox.spec.byId.has(id), id).toBe(true);
    expect(
      unimplementedOperations(t.sandbox.spec, t.sandbox.handlers).filter((id) =>
        OPERATIONS.includes(id),
      ),
    ).toEqual([]);
  });

  it('asks for HMAC credentials on every developer operation', async () => {
    for (const op of t.sandbox.spec.operations.filter(
      (o) => OPERATIONS.includes(o.operationId) && o.auth === 'hmac',
    )) {
      const path = op.path.replace(/\{[^}]+\}/g, 'f'.repeat(32));
      const res = await t.request(op.method.toUpperCase(), path, {
        body: op.hasBody ? {} : undefined,
      });
      expect(res.status, op.operationId).toBe(401);
      expect(errorCode(res.body), op.operationId).toBe('missing_credentials');
    }
  });

  it('reloads order and transfer history on reset and keeps working afterwards', async () => {
    const count = () =>
      t.db
        .prepare(
          'SELECT (SELECT COUNT(*) FROM sell_orders) + (SELECT COUNT(*) FROM buy_orders) + (SELECT COUNT(*) FROM transfers) AS n',
        )
        .get() as { n: number };
    const loaded = count().n;
    expect(loaded).toBe(
      ['sell_orders', 'buy_orders', 'transfers'].reduce(
        (n, k) => n + (t.fixtures[k] as unknown[]).length,
        0,
      ),
    );
    expect(
      (await t.signed('POST', '/v1/sellorder', { body: { outlet_id: 'bpi', amount: 100 } })).status,
    ).toBe(201);
    t.sandbox.reset();
    expect(count().n).toBe(loaded);
    t.assertLedger();
    expect(
      (await t.signed('POST', '/v1/sellorder', { body: { outlet_id: 'bpi', amount: 100 } })).status,
    ).toBe(201);
    t.assertLedger();
  });
});
