import { formatTimestamp } from '../shared/clock.js';
import { formatMoney } from '../shared/money.js';
import type { TransferRow } from './transfers.repo.js';

/** The transfer resource (real-api-facts: id, account, amount, target_address, status, created_at). */
export function transferResource(t: TransferRow) {
  return {
    id: t.id,
    account: t.account_id,
    amount: formatMoney(t.amount),
    target_address: t.target_address,
    status: t.status,
    created_at: formatTimestamp(Number(t.created_at)),
  };
}
