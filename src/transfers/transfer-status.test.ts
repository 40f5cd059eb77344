import { afterEach, describe, expect, it } from 'vitest';
import {
  balanceOf,
  otpDeveloper,
  whitelistedDeveloper,
} from '../testing/developer.test-support.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
afterEach(() => t.close());

const walletOf = (d: { accounts: Array<{ id: string; currency: string }> }) =>
  d.accounts.find((a) => a.currency === 'PHP')!.id;

async function pendingTransfer(amount = '40') {
  const from = walletOf(whitelistedDeveloper(t));
  const to = walletOf(otpDeveloper(t));
  const before = { from: balanceOf(t, from), to: balanceOf(t, to) };
  const res = await t.signed('POST', '/v3/transfers/', {
    body: { account: from, target_address: to, amount },
  });
  expect(res.body.transfer.status).toBe('pending');
  return { id: res.body.transfer.id as string, from, to, before };
}

const setStatus = (id: string, status: unknown) =>
  t.request('POST', `/_sandbox/transfers/${id}/status`, { body: { status } });

describe('POST /_sandbox/transfers/{id}/status (setTransferStatus)', () => {
  it('settles a pending transfer now: the held amount reaches the target', async () => {
    t = createTestApp();
    const p = await pendingTransfer();
    const res = await setStatus(p.id, 'success');
    expect(res.status).toBe(200);
    expect(res.body.transfer).toMatchObject({ id: p.id, status: 'success', amount: '40' });
    expect(balanceOf(t, p.from)).toBe(p.before.from - parseAmount('40'));
    expect(balanceOf(t, p.to)).toBe(p.before.to + parseAmount('40'));
    t.assertLedger();
  });

  it('fails a pending transfer: the held amount goes back to the source, and the clock never settles it', async () => {
    t = createTestApp();
    const p = await pendingTransfer();
    const res = await setStatus(p.id, 'failed');
    expect(res.status).toBe(200);
    expect(res.body.transfer.status).toBe('failed');
    t.advance(3600);
    t.sandbox.tick();
    expect((await t.signed('GET', `/v3/transfers/${p.id}`)).body.transfer.status).toBe('failed');
    expect(balanceOf(t, p.from)).toBe(p.before.from);
    expect(balanceOf(t, p.to)).toBe(p.before.to);
    t.assertLedger();
  });

  it('moves only a pending transfer (409), knows only real ids (404), and only success or failed (400)', async () => {
    t = createTestApp();
    const p = await pendingTransfer();
    expect((await setStatus(p.id, 'success')).status).toBe(200);
    const again = await setStatus(p.id, 'failed');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error_codes: ['invalid_state_transition'],
      errors: {
        non_field_errors: ['Transfer is success; only a pending transfer can become failed.'],
      },
    });
    const unknown = await setStatus('0'.repeat(32), 'success');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error_codes: ['not_found'],
      errors: { non_field_errors: ['Not found.'] },
    });
    const bad = await setStatus(p.id, 'pending');
    expect(bad.status).toBe(400);
    expect(bad.body.error_codes).toEqual(['validation_error']);
    expect(Object.keys(bad.body.errors)).toEqual(['status']);
    expect(balanceOf(t, p.to)).toBe(p.before.to + parseAmount('40'));
    t.assertLedger();
  });

  it('with --transfer-delay 0 a transfer stays pending until the control API moves it', async () => {
    t = createTestApp({ config: { transferSettleSeconds: 0 } });
    const p = await pendingTransfer();
    t.advance(86_400);
    t.sandbox.tick();
    expect((await t.signed('GET', `/v3/transfers/${p.id}`)).body.transfer.status).toBe('pending');
    expect(balanceOf(t, p.to)).toBe(p.before.to);
    expect((await setStatus(p.id, 'success')).body.transfer.status).toBe('success');
    t.assertLedger();
  });

  it('settles every due transfer in one clock advance, however many there are', async () => {
    t = createTestApp();
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await pendingTransfer('1'));
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 10 } });
    const statuses = t.db
      .prepare(
        'SELECT status, COUNT(*) AS n FROM transfers WHERE id IN (' +
          made.map(() => '?').join(',') +
          ') GROUP BY status',
      )
      .all(...made.map((m) => m.id));
    expect(statuses).toEqual([{ status: 'success', n: 12 }]);
    t.assertLedger();
  });

  it("cannot fail a transfer already past its delay, even before the clock's tick: it has settled (409)", async () => {
    t = createTestApp();
    const p = await pendingTransfer();
    t.advance(11); // past --transfer-delay, no tick has run
    const late = await setStatus(p.id, 'failed');
    expect(late.status).toBe(409);
    expect(late.body.errors).toEqual({
      non_field_errors: ['Transfer is success; only a pending transfer can become failed.'],
    });
    expect(balanceOf(t, p.to)).toBe(p.before.to + parseAmount('40'));
    t.assertLedger();
  });
});
