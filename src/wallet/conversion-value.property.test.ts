import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { formatMoney } from '../shared/money.js';
import { PESOS_PER_COIN } from '../shared/rates.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * No sequence of conversions raises what a customer's wallets are worth at the sandbox's rates: pesos to a
 * coin round down, a coin to pesos is exact. Before, 0.00311 PHP became 0.00000001 BTC (rounded up) and
 * came back as 0.00621822 PHP, +0.0031 PHP a round trip, without limit.
 */
let t: TestApp;
beforeAll(() => {
  t = createTestApp({ config: { transferSettleSeconds: 0 } });
});
afterAll(() => t.close());

type Coin = 'BTC' | 'ETH';
type Step = { coin: Coin; toCoin: boolean; units: bigint };

function developerWithCoins() {
  const dev = newDeveloper(t, { php: '1000' });
  const eth = t.services.unitOfWork(() =>
    t.services.ledger.createAccount({
      ownerType: 'user',
      ownerId: dev.id,
      name: 'ETH',
      currency: 'ETH',
    }),
  );
  return { ...dev, eth };
}

const worth = (d: ReturnType<typeof developerWithCoins>) =>
  balanceOf(t, d.php) +
  balanceOf(t, d.btc) * PESOS_PER_COIN.BTC! +
  balanceOf(t, d.eth) * PESOS_PER_COIN.ETH!;

async function convert(
  d: ReturnType<typeof developerWithCoins>,
  from: string,
  to: string,
  units: bigint,
) {
  const res = await t.signed('POST', '/v3/crypto-exchanges/', {
    ...as(d),
    body: { source_account: from, target_account: to, amount: formatMoney(units) },
  });
  if (res.status === 201) {
    const id = res.body['crypto-exchange'].id as string;
    expect(
      (
        await t.request('POST', `/_sandbox/crypto-exchanges/${id}/status`, {
          body: { status: 'success' },
        })
      ).status,
    ).toBe(200);
  }
  return res;
}

const step: fc.Arbitrary<Step> = fc.record({
  coin: fc.constantFrom<Coin>('BTC', 'ETH'),
  toCoin: fc.boolean(),
  // Tiny amounts (where rounding decides everything) as often as ordinary ones.
  units: fc.oneof(fc.bigInt(1n, 1_000_000n), fc.bigInt(1n, 100_000_000_000n)),
});

describe('conversions', () => {
  it('refuses an amount too small to buy one unit of the coin, with a 400, and moves nothing', async () => {
    const d = developerWithCoins();
    const before = worth(d);
    const res = await convert(d, d.php, d.btc, 311_000n); // 0.00311 PHP
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      amount: ['Amount is too small to convert from PBTC to BTC.'],
    });
    expect(worth(d)).toBe(before);
  });

  it('never raise the worth of the wallets at the rates, in any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const d = developerWithCoins();
        let last = worth(d);
        for (const s of steps) {
          const coinAccount = s.coin === 'BTC' ? d.btc : d.eth;
          const [from, to] = s.toCoin ? [d.php, coinAccount] : [coinAccount, d.php];
          const held = balanceOf(t, from);
          const units = held > 0n && s.units > held ? (s.units % held) + 1n : s.units;
          const res = await convert(d, from, to, units);
          expect([201, 400]).toContain(res.status);
          const now = worth(d);
          expect(
            now <= last,
            `${s.coin} ${s.toCoin ? 'in' : 'out'} ${units}: ${last} → ${now}`,
          ).toBe(true);
          if (!s.toCoin && res.status === 201) expect(now).toBe(last); // a coin to pesos is exact
          last = now;
        }
      }),
      { numRuns: 40 },
    );
    expect(checkLedgerInvariants(t.db)).toMatchObject({ ok: true, problems: [] });
  }, 180_000);
});
