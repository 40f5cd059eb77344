import type { LedgerApi } from '../ledger/ledger.api.js';

const NAMES = {
  exchange: 'Exchange desk',
  'exchange-clearing': 'Conversions in flight',
  'payment-clearing': 'Crypto payments in flight',
} as const;

/**
 * A system account of the wallet operations, one per purpose and currency, made on first use. System
 * accounts may go negative: the exchange desk stands for the market outside the sandbox.
 */
export function walletSystemAccount(
  ledger: LedgerApi,
  purpose: keyof typeof NAMES,
  currency: string,
): string {
  const id = `system-${purpose}-${currency.toLowerCase()}`;
  if (!ledger.get(id))
    ledger.createAccount({
      id,
      ownerType: 'system',
      ownerId: 'sandbox',
      name: `${NAMES[purpose]} (${currency})`,
      currency,
      allowNegative: true,
    });
  return id;
}
