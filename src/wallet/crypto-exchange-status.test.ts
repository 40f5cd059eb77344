import { afterEach, describe, expect, it } from 'vitest';
import { balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { cryptoHelpers } from '../testing/crypto.test-support.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode } from '../testing/error-code.js';

let t: TestApp;
afterEach(() => t.close());

const { exchange, transactionsOf, statusSetter, settle, listed } = cryptoHelpers(() => t);
const setStatus = statusSetter('crypto-exchanges');

describe('POST /_sandbox/crypto-exchanges/{id}/status (setCryptoExchangeStatus)', () => {
  async function pending(amount = '200') {
    const dev = newDeveloper(t, { php: '1000' });
    const res = await exchange(dev, { source_account: dev.php, target_account: dev.btc, amount });
    expect(res.body['crypto-exchange'].status).toBe('pending');
    return { dev, id: res.body['crypto-exchange'].id as string };
  }

  it('settles a pending conversion now: the converted amount reaches the target', async () => {
    t = createTestApp({ config: { transferSettleSeconds: 0 } });
    const { dev, id } = await pending();
    const res = await setStatus(id, 'success');
    expect(res.status).toBe(200);
    expect(res.body['crypto-exchange']).toMatchObject({
      id,
      status: 'success',
      target_amount: '0.00032163',
    });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('800'));
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.00032163'));
    t.assertLedger();
  });

  it('fails a pending conversion: the source amount comes back, the target gets nothing, and the clock leaves it failed', async () => {
    t = createTestApp();
    const { dev, id } = await pending();
    const desk = balanceOf(t, 'system-exchange-btc');
    const res = await setStatus(id, 'failed');
    expect(res.status).toBe(200);
    expect(res.body['crypto-exchange'].status).toBe('failed');
    expect(balanceOf(t, dev.php)).toBe(parseAmount('1000'));
    expect(balanceOf(t, dev.btc)).toBe(0n);
    // The desk's converted amount went back to the desk; nothing stays in flight.
    expect(balanceOf(t, 'system-exchange-btc')).toBe(desk + parseAmount('0.00032163'));
    expect(balanceOf(t, 'system-exchange-clearing-php')).toBe(0n);
    expect(balanceOf(t, 'system-exchange-clearing-btc')).toBe(0n);
    expect(
      transactionsOf(id)
        .map((x) => x.kind)
        .slice(2),
    ).toEqual(['crypto_exchange_refund', 'crypto_exchange_refund']);
    settle();
    expect((await listed(dev))[0].status).toBe('failed');
    expect(balanceOf(t, dev.btc)).toBe(0n);
    t.assertLedger();
  });

  it('moves only a pending conversion (409), knows only real ids (404), and only success or failed (400)', async () => {
    t = createTestApp();
    const { dev, id } = await pending();
    settle();
    const again = await setStatus(id, 'failed');
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual({
      non_field_errors: ['Conversion is success; only a pending conversion can become failed.'],
    });
    expect(errorCode(again.body)).toBe('invalid_state_transition');
    expect((await setStatus('0'.repeat(32), 'success')).status).toBe(404);
    const bad = await setStatus(id, 'pending');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['status']);
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.00032163'));
    t.assertLedger();
  });

  it("cannot fail a conversion already past its delay, even before the clock's tick (409): it has settled", async () => {
    t = createTestApp();
    const { dev, id } = await pending();
    t.advance(11); // past --transfer-delay, no tick has run
    const late = await setStatus(id, 'failed');
    expect(late.status).toBe(409);
    expect(late.body.errors).toEqual({
      non_field_errors: ['Conversion is success; only a pending conversion can become failed.'],
    });
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.00032163'));
    t.assertLedger();
  });

  it('with --transfer-delay 0 a conversion waits for the control API', async () => {
    t = createTestApp({ config: { transferSettleSeconds: 0 } });
    const { dev } = await pending();
    t.advance(86_400);
    t.sandbox.tick();
    expect((await listed(dev))[0].status).toBe('pending');
    expect(balanceOf(t, dev.btc)).toBe(0n);
    t.assertLedger();
  });
});
