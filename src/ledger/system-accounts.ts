/** Well-known system accounts (allowed to go negative: they stand for the world outside). */
export const SYSTEM_ACCOUNTS = {
  funding: 'system-funding',
  counterClearing: 'system-counter-clearing',
  payoutClearing: 'system-payout-clearing',
  payoutFees: 'system-payout-fees',
} as const;
