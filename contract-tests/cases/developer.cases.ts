import type { PayoutOutletFee } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { fractionOf, money, units } from '../harness/decimal.js';

/** The first fee bracket the target lists; none is drift. */
export async function firstFeeBracket(ctx: CaseContext): Promise<PayoutOutletFee> {
  return ctx.expectPresent(
    (await allFeeBrackets(ctx))[0],
    'no payout outlet with fee brackets',
    'listPartnerPayoutOutletFees',
  );
}

/** Every fee bracket the target lists (at most 5 pages of 100). */
export async function allFeeBrackets(ctx: CaseContext): Promise<PayoutOutletFee[]> {
  const out: PayoutOutletFee[] = [];
  for (let page: number | null = 1, i = 0; page !== null && i < 5; i++) {
    const res = await ctx.dev.listPartnerPayoutOutletFees({ page, per_page: 100 });
    out.push(...res['partner-payout-outlet-fees']);
    page = res.meta.next_page;
  }
  return out;
}

/** An amount inside a bracket, preferring one where the percentage part is not zero. */
export function amountIn(b: PayoutOutletFee): string {
  const from = units(b.from_amount);
  const until = units(b.until_amount);
  const pick = from > 0n ? from + 123_45000000n : 100_00000000n;
  return money(pick <= until ? pick : from);
}

/** Wallet accounts, fee quotes and lookups of the developer API (docs/design.md#public-api). */
export const developerCases: ContractCase[] = [
  {
    name: 'accounts: wallet accounts filter by currency',
    tags: ['read'],
    async run(ctx) {
      const all = await ctx.dev.listCryptoAccounts({ per_page: 100 });
      const currencies = [...new Set(all['crypto-accounts'].map((a) => a.currency))];
      for (const currency of currencies) {
        const page = await ctx.dev.listCryptoAccounts({ currency, per_page: 100 });
        ctx.check(
          page['crypto-accounts'].length > 0 &&
            page['crypto-accounts'].every((a) => a.currency === currency),
          `currency=${currency} returned other currencies`,
          'listCryptoAccounts',
        );
      }
      const none = await ctx.dev.listCryptoAccounts({ currency: 'XQZ' });
      ctx.check(
        none['crypto-accounts'].length === 0 && none.meta.total_count === 0,
        'currency=XQZ returned accounts',
        'listCryptoAccounts',
      );
    },
  },
  {
    name: 'fees: a quote applies its bracket: fee = amount × fee_percent (a fraction) + fee_amount, total = amount + fee',
    tags: ['read'],
    async run(ctx) {
      const brackets = await allFeeBrackets(ctx);
      ctx.check(
        brackets.length > 0,
        'no partner payout outlet fee brackets to quote',
        'listPartnerPayoutOutletFees',
      );
      const sample = [
        ...new Map(
          brackets.map((b) => [`${b.payment_outlet} ${!/^0(\.0*)?$/.test(b.fee_percent)}`, b]),
        ).values(),
      ].slice(0, 4);
      for (const b of sample) {
        const amount = amountIn(b);
        const q = await ctx.dev.quotePartnerPayoutOutletFee({
          outlet_id: b.payment_outlet,
          amount,
        });
        const at = `quote of ${amount} at ${b.payment_outlet}`;
        const c = (ok: boolean, msg: string) =>
          ctx.check(ok, `${at}: ${msg}`, 'quotePartnerPayoutOutletFee');
        c(q.payment_outlet === b.payment_outlet, `payment_outlet is ${q.payment_outlet}`);
        c(
          q.from_amount === b.from_amount && q.until_amount === b.until_amount,
          `bracket ${q.from_amount}–${q.until_amount}, listed ${b.from_amount}–${b.until_amount}`,
        );
        c(q.amount === amount, `amount came back as ${q.amount}`);
        const pct = fractionOf(units(amount), q.fee_percent);
        const fee = units(q.fee);
        const ok = pct.exact
          ? fee === pct.floor + units(q.fee_amount)
          : fee - pct.floor - units(q.fee_amount) <= 1n &&
            fee - pct.floor - units(q.fee_amount) >= 0n;
        c(ok, `fee ${q.fee} ≠ ${amount} × ${q.fee_percent} + ${q.fee_amount}`);
        c(units(q.total) === units(amount) + fee, `total ${q.total} ≠ amount + fee`);
      }
    },
  },
  {
    name: 'fees: quote errors are 400 (outside the brackets, unknown outlet, bad amount)',
    tags: ['read'],
    async run(ctx) {
      const brackets = await allFeeBrackets(ctx);
      const outlet = brackets[0]?.payment_outlet;
      ctx.check(Boolean(outlet), 'no fee brackets listed', 'listPartnerPayoutOutletFees');
      const top = brackets
        .filter((b) => b.payment_outlet === outlet)
        .reduce((m, b) => (units(b.until_amount) > m ? units(b.until_amount) : m), 0n);
      const quote = (body: Record<string, unknown>) =>
        ctx.dev.request({
          method: 'POST',
          path: '/v3/partner-payout-outlet-fees',
          body,
          operationId: 'quotePartnerPayoutOutletFee',
        });
      ctx.expectError(
        await quote({ outlet_id: outlet, amount: money(top + 100_000_000n) }),
        400,
        'amount_outside_fee_brackets',
        'amount',
      );
      ctx.expectError(
        await quote({ outlet_id: `ct-no-such-outlet-${ctx.info.runId}`, amount: '100' }),
        400,
        'validation_error',
        'outlet_id',
      );
      ctx.expectError(
        await quote({ outlet_id: outlet, amount: '-1' }),
        400,
        'validation_error',
        'amount',
      );
      ctx.expectError(await quote({ outlet_id: outlet }), 400, 'validation_error', 'amount');
    },
  },
  {
    name: 'lookups: unknown sell order, buy order and transfer ids are 404 not_found',
    tags: ['read'],
    async run(ctx) {
      const id = '0'.repeat(32);
      await ctx.rejects(ctx.dev.getSellOrder(id), 404, 'not_found');
      await ctx.rejects(ctx.dev.getBuyOrder(id), 404, 'not_found');
      await ctx.rejects(ctx.dev.getTransfer(id), 404, 'not_found');
    },
  },
  {
    name: 'lookups: the newest listed sell order, buy order and transfer retrieve as listed',
    tags: ['read'],
    async run(ctx) {
      // A sell order's list item is the recorded history item (more keys than the retrieve's tutorial
      // shape): the two agree on every key they share.
      const sell = (await ctx.dev.listSellOrders({ limit: 1 })).orders[0];
      if (sell) {
        const one = (await ctx.dev.getSellOrder(sell.id)) as unknown as Record<string, unknown>;
        const item = sell as unknown as Record<string, unknown>;
        const differ = Object.keys(one).filter((k) => k in item && !sameJson(one[k], item[k]));
        ctx.check(
          differ.length === 0,
          `sell order ${sell.id} differs from its list item on ${differ.join(', ')}`,
          'getSellOrder',
        );
      }
      const buy = (await ctx.dev.listBuyOrders({ limit: 1 })).orders[0];
      if (buy)
        ctx.check(
          sameJson(await ctx.dev.getBuyOrder(buy.id), buy),
          `buy order ${buy.id} differs from its list item`,
          'getBuyOrder',
        );
      const transfer = (await ctx.dev.listTransfers({ per_page: 1 })).transfers[0];
      if (transfer)
        ctx.check(
          sameJson(await ctx.dev.getTransfer(transfer.id), transfer),
          `transfer ${transfer.id} differs from its list item`,
          'getTransfer',
        );
    },
  },
];
