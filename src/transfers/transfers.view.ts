import { formatTimestamp } from '../shared/clock.js';
import { formatDecimal } from '../shared/money.js';
import type { TransferRow } from './transfers.repo.js';

/**
 * The transfer resource (real-api-facts: id, account, amount, target_address, status, created_at), with
 * the amount written as stored ("25", as the recorded tutorial answer), and `payment` (the crypto payment
 * behind it) and `exchange` (the market it converted through), `null` in the sandbox: its transfers move
 * within one currency and wallet to wallet, as the newest recorded answer shows (`"payment": null`).
 */
export function transferResource(t: TransferRow) {
  return {
    id: t.id,
    account: t.account_id,
    amount: formatDecimal(t.amount),
    target_address: t.target_address,
    payment: null,
    exchange: null,
    status: t.status,
    created_at: formatTimestamp(Number(t.created_at)),
  };
}
