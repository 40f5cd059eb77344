import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const create = (dev: ReturnType<typeof newDeveloper>, body: unknown) =>
  t.signed('POST', '/api/v3/crypto-routes', { ...as(dev), body });
const listed = async (dev: ReturnType<typeof newDeveloper>) =>
  (await t.signed('GET', '/v3/crypto-routes/', as(dev))).body['crypto-routes'] as Array<{
    id: string;
  }>;

// The 2015 docs' crypto routes (parity/recorded crypto-routes.har#0, #2): answered bare.
describe('crypto routes: POST /v3/crypto-routes and DELETE /v3/crypto-routes/{id}', () => {
  it('creates an address route, answered bare, and lists it after the rate table', async () => {
    const dev = newDeveloper(t);
    const res = await create(dev, { monitored_address: '1a2b3c', stock_address: '2a1b4c' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: res.body.id,
      monitored_address: '1a2b3c',
      stock_address: '2a1b4c',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(res.body.id).toMatch(/^[0-9a-f]{32}$/);
    const all = await listed(dev);
    expect(all.map((r) => r.id)).toEqual([
      'PBTC-BTC',
      'BTC-PBTC',
      'PBTC-ETH',
      'ETH-PBTC',
      res.body.id,
    ]);
    expect(all.at(-1)).toEqual(res.body);
    // Another developer sees only the rate table.
    expect((await listed(newDeveloper(t))).map((r) => r.id)).not.toContain(res.body.id);
  });

  it('removes a route with DELETE, answering it as it was; it is gone after', async () => {
    const dev = newDeveloper(t);
    const made = (await create(dev, { monitored_address: 'm1', stock_address: 's1' })).body;
    const other = newDeveloper(t);
    expect((await t.signed('DELETE', `/v3/crypto-routes/${made.id}/`, as(other))).status).toBe(404);
    const res = await t.signed('DELETE', `/api/v3/crypto-routes/${made.id}`, as(dev));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(made);
    expect((await listed(dev)).map((r) => r.id)).not.toContain(made.id);
    const again = await t.signed('DELETE', `/v3/crypto-routes/${made.id}`, as(dev));
    expect(again.status).toBe(404);
    expect((await t.signed('DELETE', '/v3/crypto-routes/PBTC-BTC', as(dev))).status).toBe(404);
    // The monitored address is free again.
    expect((await create(dev, { monitored_address: 'm1', stock_address: 's2' })).status).toBe(201);
  });

  it('refuses a missing, blank or equal address and a second route for one address (400, nothing kept)', async () => {
    const dev = newDeveloper(t);
    expect((await create(dev, { monitored_address: 'm1', stock_address: 's1' })).status).toBe(201);
    const cases: Array<[unknown, string, string]> = [
      [{ stock_address: 's' }, 'monitored_address', 'This field is required.'],
      [
        { monitored_address: ' ', stock_address: 's' },
        'monitored_address',
        'This field may not be blank.',
      ],
      [
        { monitored_address: 'x', stock_address: 'x' },
        'stock_address',
        'Must differ from monitored_address.',
      ],
      [
        { monitored_address: 'm1', stock_address: 's9' },
        'monitored_address',
        'A route for this address already exists.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await create(dev, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors, JSON.stringify(body)).toEqual({ [field]: [message] });
    }
    expect(await listed(dev)).toHaveLength(5);
    expect((await t.request('POST', '/v3/crypto-routes/', { body: {} })).status).toBe(401);
    expect(developerError('validation_error', {}).errors).toEqual({});
  });
});

describe('GET /v3/crypto-routes/ (listCryptoRoutes)', () => {
  it('lists every route of the table both ways with its rate, under the legacy prefixes too', async () => {
    const res = await t.signed('GET', '/v3/crypto-routes/');
    expect(res.status).toBe(200);
    expect(res.body['crypto-routes']).toEqual([
      { id: 'PBTC-BTC', source_currency: 'PBTC', target_currency: 'BTC', rate: '621822' },
      { id: 'BTC-PBTC', source_currency: 'BTC', target_currency: 'PBTC', rate: '621822' },
      { id: 'PBTC-ETH', source_currency: 'PBTC', target_currency: 'ETH', rate: '95000' },
      { id: 'ETH-PBTC', source_currency: 'ETH', target_currency: 'PBTC', rate: '95000' },
    ]);
    expect((await t.signed('GET', '/api/v3/crypto-routes/')).body).toEqual(res.body);
    expect((await t.request('GET', '/v3/crypto-routes/')).status).toBe(401);
  });
});
