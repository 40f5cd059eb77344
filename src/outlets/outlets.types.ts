import type { FeeBracketRow, PayoutOutletRow } from './outlets.repo.js';

/** What an amount costs at a payout outlet: the bracket that holds it, the fee and the total. */
export interface FeeQuote {
  outlet: PayoutOutletRow;
  bracket: FeeBracketRow;
  amount: bigint;
  fee: bigint;
  total: bigint;
}
