import { describe, expect, it } from 'vitest';
import { itemAt } from '../shared/defined.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { controlError } from '../testing/error-code.js';
import { createInvoiceWith } from '../testing/invoice.test-support.js';

let t: TestApp;
appPerTest((app) => (t = app));

const createInvoice = (token: string, over?: Record<string, unknown>) =>
  createInvoiceWith(t, token, over);

describe('customers', () => {
  it('creates a customer with generated credentials and a funded wallet, usable to pay', async () => {
    const res = await t.request('POST', '/_sandbox/customers', { body: {} });
    expect(res.status).toBe(201);
    const c = res.body.customer;
    expect(c.email).toMatch(/@customer\.example\.ph$/);
    expect(c.mobile_number).toMatch(/^\+639\d{9}$/);
    expect(c.password).toMatch(/^sandbox-[0-9a-z]{8}$/);
    expect(c.accounts[0].balance).toBe('50000.00000000');
    const inv = await createInvoice(t.merchant.merchant_api_token);
    const paid = await t.request('POST', `/_sandbox/invoices/${inv.body.invoice.id}/payments`, {
      body: { collector: 'coins_peso_wallet', customer: c.mobile_number },
    });
    expect(paid.status).toBe(201);
    expect(
      (await t.request('GET', `/_sandbox/accounts/${c.accounts[0].id}`)).body.account.balance,
    ).toBe('49990.00000000');
    t.assertLedger();
  });

  it('takes the given email, mobile, password and balance', async () => {
    const body = {
      email: 'qa.one@example.ph',
      mobile_number: '+639171234567',
      password: 'hunter22',
      balance: 12,
    };
    const res = await t.request('POST', '/_sandbox/customers', { body });
    expect(res.body.customer).toMatchObject({
      email: 'qa.one@example.ph',
      mobile_number: '+639171234567',
      password: 'hunter22',
    });
    expect(res.body.customer.accounts[0].balance).toBe('12.00000000');
  });

  it('refuses a duplicate email (any case) or mobile with a field error, and bad input', async () => {
    const existing = itemAt(t.fixtures.customers, 0);
    const dupEmail = await t.request('POST', '/_sandbox/customers', {
      body: { email: existing.email.toUpperCase() },
    });
    expect(dupEmail.status).toBe(400);
    expect(dupEmail.body.errors.email).toEqual(['A user with this email already exists.']);
    const dupMobile = await t.request('POST', '/_sandbox/customers', {
      body: { mobile_number: existing.mobile_number },
    });
    expect(dupMobile.status).toBe(400);
    expect(dupMobile.body).toEqual(
      controlError('validation_error', {
        mobile_number: ['A user with this mobile number already exists.'],
      }),
    );
    const devEmail = await t.request('POST', '/_sandbox/customers', {
      body: { email: itemAt(t.fixtures.developers, 0).email },
    });
    expect(devEmail.status).toBe(400);
    expect(devEmail.body).toEqual(
      controlError('validation_error', { email: ['A user with this email already exists.'] }),
    );
    const bad: Array<[Record<string, string>, string]> = [
      [{ email: 'not-an-email' }, 'Enter a valid email address.'],
      [{ mobile_number: 'abc' }, 'Enter a valid value.'],
      [{ password: 'x' }, 'Ensure this field has at least 4 characters.'],
      [{ balance: '1.000000001' }, 'Ensure that there are no more than 8 decimal places.'],
    ];
    for (const [body, message] of bad) {
      const res = await t.request('POST', '/_sandbox/customers', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(
        controlError('validation_error', { [itemAt(Object.keys(body), 0)]: [message] }),
      );
    }
    expect((await t.request('GET', '/_sandbox/customers')).body.meta.total_count).toBe(
      t.fixtures.customers.length,
    );
  });
});

describe('accounts', () => {
  it('shows any wallet with its owner, and funds it through the ledger', async () => {
    const account = itemAt(itemAt(t.fixtures.customers, 0).accounts, 0);
    const res = await t.request('GET', `/_sandbox/accounts/${account.id}`);
    expect(res.body.account).toMatchObject({
      id: account.id,
      currency: 'PHP',
      balance: '50000.00000000',
      pending_balance: '0.00000000',
      owner: { type: 'user', id: itemAt(t.fixtures.customers, 0).id },
    });
    const funded = await t.request('POST', `/_sandbox/accounts/${account.id}/fund`, {
      body: { amount: '0.00000001' },
    });
    expect(funded.status).toBe(200);
    expect(funded.body.account.balance).toBe('50000.00000001');
    const merchantWallet = await t.request(
      'POST',
      `/_sandbox/accounts/${t.merchant.wallet_account_id}/fund`,
      { body: { amount: 7 } },
    );
    expect(merchantWallet.body.account).toMatchObject({
      balance: '7.00000000',
      owner: { type: 'merchant' },
    });
    t.assertLedger();
  });

  it('answers 404 for unknown and system accounts, 400 for bad amounts and overflow', async () => {
    const notFound = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { body });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual(controlError('not_found', { non_field_errors: ['Not found.'] }));
    };
    await notFound('GET', `/_sandbox/accounts/${'0'.repeat(32)}`);
    await notFound('POST', `/_sandbox/accounts/${'0'.repeat(32)}/fund`, { amount: 1 });
    await notFound('POST', '/_sandbox/accounts/system-funding/fund', { amount: 1 });
    await notFound('GET', '/_sandbox/accounts/system-counter-clearing');
    const id = itemAt(itemAt(t.fixtures.customers, 0).accounts, 0).id;
    const refused: Array<[unknown, string]> = [
      [0, 'Ensure this value is greater than 0.'],
      [-1, 'Ensure this value is greater than 0.'],
      ['1e5', 'A valid number is required.'],
      ['', 'A valid number is required.'],
      ['ten', 'A valid number is required.'],
      [undefined, 'This field is required.'],
      ['20000000000', 'Ensure this value is less than or equal to 10000000000.'],
    ];
    for (const [amount, message] of refused) {
      const res = await t.request('POST', `/_sandbox/accounts/${id}/fund`, {
        body: amount === undefined ? {} : { amount },
      });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body).toEqual(controlError('validation_error', { amount: [message] }));
    }
    // Funding is bounded like every posting (docs/design.md#money-bounds): the peso funding account,
    // counterparty of every funding, reaches 90000000000 first.
    let overflow: Awaited<ReturnType<typeof t.request>> | undefined;
    for (let i = 0; i < 100 && !overflow; i++) {
      const res = await t.request('POST', `/_sandbox/accounts/${id}/fund`, {
        body: { amount: '1000000000' },
      });
      if (res.status !== 200) overflow = res;
    }
    expect(overflow?.status).toBe(400);
    expect(overflow?.body).toEqual(
      controlError('validation_error', {
        amount: [
          "This would take the sandbox's PHP system account past 90000000000 PHP, the most the sandbox keeps exact.",
        ],
      }),
    );
    t.assertLedger();
  });
});
