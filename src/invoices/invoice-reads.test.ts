import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { invoiceBody as body } from '../testing/invoice.test-support.js';
import { merchantError } from '../testing/error-code.js';

let t: TestApp;
appPerTest((app) => (t = app));

describe('retrieve and list', () => {
  async function create(token: string, over: Record<string, unknown> = {}) {
    return (await t.request('POST', '/v1/invoices/', { token, body: body(over) })).body.invoice;
  }

  it('retrieves on v1 and v3, with and without the trailing slash', async () => {
    const inv = await create(t.merchant.merchant_api_token);
    for (const path of [
      `/v1/invoices/${inv.id}`,
      `/v1/invoices/${inv.id}/`,
      `/v3/invoices/${inv.id}/`,
      `/v3/invoices/${inv.id}`,
    ]) {
      const res = await t.request('GET', path, { token: t.merchant.merchant_api_token });
      expect(res.status, path).toBe(200);
      expect(res.body.invoice.id).toBe(inv.id);
    }
  });

  it('answers GET /v1/invoices/{id} with no Authorization header at all (the merchant plugin polls so), not with a wrong one', async () => {
    const inv = await create(t.merchant.merchant_api_token);
    await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet' },
    });
    for (const path of [
      `/v1/invoices/${inv.id}`,
      `/v1/invoices/${inv.id}/`,
      `/d/api/invoices/${inv.id}/`,
    ]) {
      const res = await t.request('GET', path, { operationId: 'getInvoiceV1' });
      expect(res.status, path).toBe(200);
      expect(res.body.invoice).toMatchObject({
        id: inv.id,
        status: 'fully_paid',
        amount_due: '0.00000000',
        receiver: inv.receiver,
      });
    }
    const wrong = await t.request('GET', `/v1/invoices/${inv.id}`, {
      headers: { authorization: 'Token nope' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(
      merchantError('invalid_token', { non_field_errors: ['Invalid token.'] }),
    );
    const unknown = await t.request('GET', `/v1/invoices/${'0'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(merchantError('not_found', { non_field_errors: ['Not found.'] }));
    // Only the v1 read is public: v3 and the list still need a merchant.
    expect((await t.request('GET', `/v3/invoices/${inv.id}/`)).status).toBe(401);
    expect((await t.request('GET', '/v3/invoices/')).status).toBe(401);
  });

  it("carries the real resource's bitcoin-era fields: the locked rate, btc_amount_due at that rate, an address, empty sender fields", async () => {
    const inv = await create(t.merchant.merchant_api_token, { amount: 20 });
    expect(inv).toMatchObject({
      locked_rate: '621822.00000000',
      initial_rate: '621822.00000000',
      // 20 / 621822 = 0.0000321635… → 0.00003216
      btc_amount_due: '0.00003216',
      sender_name: '',
      sender_email: '',
      sender_mobile_number: '',
      payment_collector_fee_placement: 'top',
    });
    expect(inv.incoming_address).toMatch(/^3[1-9A-HJ-NP-Za-km-z]{33}$/);
    const other = await create(t.merchant.merchant_api_token, {
      external_transaction_id: 'another',
    });
    expect(other.incoming_address).not.toBe(inv.incoming_address);
    await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet', amount: '10' },
    });
    const half = (
      await t.request('GET', `/v1/invoices/${inv.id}`, { token: t.merchant.merchant_api_token })
    ).body.invoice;
    expect(half).toMatchObject({
      amount_due: '10.00000000',
      btc_amount_due: '0.00001608',
      incoming_address: inv.incoming_address,
    });
    await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet' },
    });
    const paid = (
      await t.request('GET', `/v1/invoices/${inv.id}`, { token: t.merchant.merchant_api_token })
    ).body.invoice;
    expect(paid).toMatchObject({ status: 'fully_paid', btc_amount_due: '0.00000000' });
  });

  it("answers 404 for another merchant's invoice, never its data", async () => {
    const inv = await create(t.merchant.merchant_api_token);
    const res = await t.request('GET', `/v1/invoices/${inv.id}`, {
      token: t.otherMerchant.merchant_api_token,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(merchantError('not_found', { non_field_errors: ['Not found.'] }));
    expect(res.text).not.toContain(inv.external_transaction_id);
    const list = await t.request('GET', '/v3/invoices/', {
      token: t.otherMerchant.merchant_api_token,
    });
    expect(list.body.meta.total_count).toBe(0);
  });

  it('lists newest first with page metas, filters and clamping', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 23; i++)
      ids.push(
        (await create(t.merchant.merchant_api_token, { external_transaction_id: `e-${i}` })).id,
      );
    await create(t.otherMerchant.merchant_api_token);
    const tok = t.merchant.merchant_api_token;
    const p1 = await t.request('GET', '/v3/invoices/', { token: tok });
    expect(p1.body.meta).toEqual({ total_count: 23, next_page: 2, previous_page: null });
    expect(p1.body.invoices.map((i: { id: string }) => i.id)).toEqual(
      ids.slice().reverse().slice(0, 10),
    );
    const p3 = await t.request('GET', '/v3/invoices/?page=3', { token: tok });
    expect(p3.body.meta).toEqual({ total_count: 23, next_page: null, previous_page: 2 });
    expect(p3.body.invoices).toHaveLength(3);
    const past = await t.request('GET', '/v3/invoices/?page=9', { token: tok });
    expect(past.status).toBe(200);
    expect(past.body).toEqual({
      invoices: [],
      meta: { total_count: 23, next_page: null, previous_page: 3 },
    });
    const big = await t.request('GET', '/v3/invoices/?per_page=1000', { token: tok });
    expect(big.body.invoices).toHaveLength(23);
    expect(big.body.meta.next_page).toBeNull();
    const byExt = await t.request('GET', '/v3/invoices/?external_transaction_id=e-5', {
      token: tok,
    });
    expect(byExt.body.invoices.map((i: { id: string }) => i.id)).toEqual([ids[5]]);
    expect(byExt.body.meta.total_count).toBe(1);
    const pending = await t.request('GET', '/v3/invoices/?status=pending&per_page=5', {
      token: tok,
    });
    expect(pending.body.meta).toEqual({ total_count: 23, next_page: 2, previous_page: null });
    const paid = await t.request('GET', '/v3/invoices/?status=fully_paid', { token: tok });
    expect(paid.body).toEqual({
      invoices: [],
      meta: { total_count: 0, next_page: null, previous_page: null },
    });
  });
});
