import { ApiError } from '../shared/api-error.js';
import { formatMoneyShort, MAX_ACCOUNT_UNITS } from '../shared/money.js';
import type { SystemAccount } from './system-accounts.js';

/**
 * What the ledger gives other modules (docs/design.md#storage): wallet accounts and balanced,
 * append-only postings between them, in domain types, and the errors a posting throws. Its tables are
 * its own.
 */

export type OwnerType = 'merchant' | 'user' | 'system';

/** A wallet account with its cached balances (always the sum of its entries: src/ledger/invariants.ts). */
export interface Account {
  id: string;
  owner_type: OwnerType;
  owner_id: string;
  name: string;
  currency: string;
  balance: bigint;
  pending_balance: bigint;
  /** Everything ever credited to the account (cached like `balance`). */
  total_received: bigint;
  default_address: string;
  allow_negative: number;
  created_at: number;
}

export interface Posting {
  accountId: string;
  /** Signed units: positive credits the account, negative debits it. */
  amount: bigint;
}

export interface NewAccount {
  ownerType: OwnerType;
  ownerId: string;
  name: string;
  currency: string;
  id?: string;
  allowNegative?: boolean;
}

export interface LedgerApi {
  /** Open an account; returns its id. */
  createAccount(a: NewAccount): string;
  /** Open the system accounts (src/ledger/system-accounts.ts) that do not exist yet. */
  ensureSystemAccounts(): void;
  /**
   * The system account of a purpose in one currency (the funding account of BTC, …), made on first use:
   * every ledger transaction holds one currency, so the world outside has an account per currency.
   */
  systemAccount(purpose: SystemAccount, currency: string): string;
  /**
   * Refuse (BalanceLimitError), before anything is written, a send whose destination could not be
   * credited `amount` when it settles (its balance or total received would pass MAX_ACCOUNT_UNITS),
   * counting what is already on its way to it (`countIncoming`): every acknowledged send can settle.
   */
  requireRoom(accountId: string, amount: bigint): void;
  /**
   * Tell `requireRoom` what one module has on its way to an account: sends pending, orders paid and not yet
   * released. Each module registers its own (no module reads another's tables).
   */
  countIncoming(source: (accountId: string) => bigint): void;
  /**
   * An account's entries in [from, to) (sandbox microseconds), oldest first, with their transaction's kind
   * and reference, and `fee`: what the same transaction moved to or from a payout-fee account (the fee of
   * a sell order, or its refund; 0 for most).
   */
  entriesBetween(
    accountId: string,
    from: number,
    to: number,
  ): Array<{
    transaction_id: string;
    kind: string;
    reference: string | null;
    amount: bigint;
    created_at: bigint;
    fee: bigint;
  }>;
  /** An account's balance from its entries before `at`. */
  balanceAt(accountId: string, at: number): bigint;
  get(id: string): Account | undefined;
  /** An owner's accounts, newest first. */
  byOwner(ownerType: OwnerType, ownerId: string): Account[];
  /**
   * Record one balanced transaction in one currency; returns its id. Must run inside the caller's
   * transaction (a throw rolls back what it moved): throws when it does not balance, mixes currencies,
   * takes an account past MAX_ACCOUNT_UNITS (BalanceLimitError, a 400 on `amount`) or a wallet below zero.
   */
  post(kind: string, reference: string | null, postings: Posting[]): string;
}

/** A programming error: a transaction that does not balance, or that mixes currencies. */
export class LedgerImbalanceError extends Error {}

/**
 * The 400 of a posting that would take an account's figures past MAX_ACCOUNT_UNITS
 * (docs/design.md#money-bounds). The clock's own work catches it: a send that cannot be credited fails
 * and gives the money back, a buy order that cannot be released is canceled.
 */
export class BalanceLimitError extends ApiError {
  /** `figure`: what would pass the bound, the balance or (a wallet's) total received. */
  constructor(
    account: Pick<Account, 'owner_type' | 'currency'> | undefined,
    figure: 'balance' | 'total_received' = 'balance',
  ) {
    const whose =
      account?.owner_type === 'system'
        ? `the sandbox's ${account.currency} system account`
        : figure === 'total_received'
          ? "the account's total received"
          : 'the account';
    const limit = `${formatMoneyShort(MAX_ACCOUNT_UNITS)}${account ? ` ${account.currency}` : ''}`;
    super('validation_error', {
      amount: [`This would take ${whose} past ${limit}, the most the sandbox keeps exact.`],
    });
  }
}
