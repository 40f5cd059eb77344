/** Well-known system accounts (allowed to go negative: they stand for the world outside). */
export const SYSTEM_ACCOUNTS = {
  funding: 'system-funding',
  counterClearing: 'system-counter-clearing',
  payoutClearing: 'system-payout-clearing',
  payoutFees: 'system-payout-fees',
} as const;

export type SystemAccount = keyof typeof SYSTEM_ACCOUNTS;

/**
 * The id of a purpose's system account in a currency. Every ledger transaction holds one currency, so
 * each currency has its own: the peso ones keep their first ids (`system-funding`), the others carry the
 * currency (`system-funding-btc`).
 */
export function systemAccountId(purpose: SystemAccount, currency: string): string {
  const base = SYSTEM_ACCOUNTS[purpose];
  return currency === 'PHP' ? base : `${base}-${currency.toLowerCase()}`;
}
