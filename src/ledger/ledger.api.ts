/**
 * What the ledger gives other modules (docs/design.md#storage): wallet accounts and balanced,
 * append-only postings between them, in domain types. Its tables are its own.
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
  get(id: string): Account | undefined;
  /** An owner's accounts, newest first. */
  byOwner(ownerType: OwnerType, ownerId: string): Account[];
  /**
   * Record one balanced transaction; returns its id. Must run inside the caller's transaction when other
   * writes belong with it; throws (and so rolls back) when it does not balance or a wallet would go negative.
   */
  post(kind: string, reference: string | null, postings: Posting[]): string;
}
