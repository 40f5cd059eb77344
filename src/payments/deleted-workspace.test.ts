import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceOf, postForm } from '../testing/checkout.test-support.js';
import { errorCode } from '../testing/error-code.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

describe("a deleted workspace's invoices", () => {
  it('can no longer be paid by any path: 409 invoice_not_payable, nothing moves', async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const create = (ext: string) =>
      t.request('POST', '/v1/invoices/', {
        token: ws.merchant.merchant_api_token,
        body: { amount: '20', currency: 'PHP', external_transaction_id: ext },
      });
    const ids: string[] = [];
    for (const ext of ['a', 'b', 'c']) ids.push((await create(ext)).body.invoice.id);
    const wallet = ws.customer.accounts[0].id as string;
    const before = balanceOf(t, wallet);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);

    const paid = await t.request('POST', `/_sandbox/invoices/${ids[0]}/payments`, {
      body: { collector: 'coins_peso_wallet' },
    });
    expect(paid.status).toBe(409);
    expect(errorCode(paid.body)).toBe('invoice_not_payable');
    const triggered = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.fully_paid', invoice_id: ids[1] },
    });
    expect(triggered.status).toBe(409);
    expect(errorCode(triggered.body)).toBe('invoice_not_payable');
    // The hosted page's sandbox chooser (no login needed) pays nothing either.
    await postForm(t, `/payment/invoice/${ids[2]}/sandbox`, { outcome: 'full' });

    for (const id of ids) expect(t.services.invoiceRepo.byId(id)?.status, id).toBe('pending');
    expect(balanceOf(t, wallet)).toBe(before);
    expect(balanceOf(t, ws.merchant.wallet_account_id)).toBe(0n);
  });
});
