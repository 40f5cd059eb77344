import { ApiError } from '../shared/api-error.js';
import { formatTimestamp } from '../shared/clock.js';
import { formatMoney } from '../shared/money.js';
import { developerCurrency } from './accounts.view.js';
import type { LedgerApi } from './ledger.api.js';

/** The columns of a balance statement, from `entry_type` to `status` and `order_fee`, as a public client reads them. */
export const STATEMENT_COLUMNS = [
  'entry_type',
  'transaction_id',
  'created_at',
  'transaction_type',
  'reference',
  'currency',
  'amount',
  'balance',
  'status',
  'order_fee',
] as const;

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/**
 * `GET /v3/balance-statements/?month=&year=&currency=`: one CSV row per ledger entry of the owner's wallet
 * in that currency (the peso wallet is `PBTC`, the default) during that calendar month (UTC), oldest first,
 * with the running balance. `entry_type` is `incoming` or `outgoing` by the entry's sign; the amount is
 * unsigned; every posted entry is `success`. A sell order's payout fee is debited with its amount in one
 * entry: the row shows the order's amount in `amount` and the fee in `order_fee` (their sum is what the
 * wallet lost; a refund, the same the other way); `order_fee` is 0 on every other row.
 */
export function balanceStatement(
  ledger: LedgerApi,
  ownerId: string,
  q: { month?: number; year?: number; currency?: string },
): string {
  const missing = (['month', 'year'] as const).filter((k) => q[k] === undefined);
  if (missing.length)
    throw new ApiError(
      'validation_error',
      Object.fromEntries(missing.map((k) => [k, ['This field is required.']])),
    );
  const { month, year } = q as { month: number; year: number };
  const currency = (q.currency ?? 'PBTC').trim().toUpperCase();
  if (currency === '') throw ApiError.field('currency', 'This field may not be blank.');
  const wallet = ledger
    .byOwner('user', ownerId)
    .filter((a) => developerCurrency(a.currency) === currency)
    .at(-1);
  if (!wallet) throw ApiError.field('currency', `You have no ${currency} wallet.`);
  const from = Date.UTC(year, month - 1, 1) * 1000;
  const to = Date.UTC(year, month, 1) * 1000;
  let balance = ledger.balanceAt(wallet.id, from);
  const lines = [STATEMENT_COLUMNS.join(',')];
  for (const e of ledger.entriesBetween(wallet.id, from, to)) {
    balance += e.amount;
    const row = [
      e.amount < 0n ? 'outgoing' : 'incoming',
      e.transaction_id,
      formatTimestamp(Number(e.created_at)),
      e.kind,
      e.reference ?? '',
      currency,
      // Stryker disable next-line EqualityOperator: -0n is 0n, so a zero amount reads the same either way
      formatMoney((e.amount < 0n ? -e.amount : e.amount) - e.fee),
      formatMoney(balance),
      'success',
      formatMoney(e.fee),
    ];
    lines.push(row.map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
