import { ApiError } from '../shared/api-error.js';
import type { SellOrderCreateBody } from './sell-orders.service.js';

/** A sell-order body as the document accepts it, older field names included. */
export type SellOrderRequestBody = Omit<SellOrderCreateBody, 'amount'> & {
  amount?: number | string;
  btc_amount?: number | string;
  bank_account_name?: string;
  bank_account_number?: string;
  phone_number_load?: string;
  currency_amount_locked?: number | string;
};

/**
 * The older spellings that the real service's example scripts still send (batch payouts): `btc_amount`
 * for `amount` (the wallet amount; the sandbox rate is 1, so it is the payout amount too) and the bank
 * details `bank_account_name` / `bank_account_number`, kept as the bank outlets' `fields`; and a mobile
 * load's `phone_number_load` (kept in `fields`) and `currency_amount_locked` (the peso amount, which wins
 * over its `btc_amount`).
 */
export function sellOrderInput(body: SellOrderRequestBody): SellOrderCreateBody {
  const {
    btc_amount,
    bank_account_name,
    bank_account_number,
    phone_number_load,
    currency_amount_locked,
    amount,
    ...rest
  } = body;
  if (amount !== undefined && btc_amount !== undefined)
    throw ApiError.field('btc_amount', 'Send amount or btc_amount, not both.');
  if (amount !== undefined && currency_amount_locked !== undefined) {
    throw ApiError.field(
      'currency_amount_locked',
      'Send amount or currency_amount_locked, not both.',
    );
  }
  // A load order locks the peso amount; its btc_amount is that amount at the real rate, not the payout.
  const given = currency_amount_locked ?? amount ?? btc_amount;
  if (given === undefined) throw ApiError.field('amount', 'This field is required.');
  const bank: Record<string, string> = {};
  if (bank_account_name !== undefined) bank.account_name = bank_account_name;
  if (bank_account_number !== undefined) bank.account_number = bank_account_number;
  if (phone_number_load !== undefined) bank.phone_number_load = phone_number_load;
  const fields = Object.keys(bank).length ? { ...bank, ...rest.fields } : rest.fields;
  return { ...rest, amount: given, ...(fields === undefined ? {} : { fields }) };
}
