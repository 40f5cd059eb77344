import type { DueWork } from '../clock/due-work.js';
import type { TenantClocks } from '../clock/tenant-clocks.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../shared/api-error.js';
import type { App, IdentitiesApi } from '../identities/identities.api.js';
import type { Account, LedgerApi } from '../ledger/ledger.api.js';
import { requireOtp } from '../auth/otp.guard.js';
import type { Clock } from '../shared/clock.js';
import { ID_PATTERN, type IdFactory } from '../shared/ids.js';
import { parseAmount } from '../shared/money.js';
import type { TransferRepository, TransferRow } from './transfers.repo.js';
import { expectSettlement, pendingSendMethods, type Outcome } from './transfers.settle-later.js';
import { transferResource } from './transfers.view.js';

/** Philippine mobile numbers as customers type them (`09…`, `639…`) in the stored `+639…` form. */
export function normalizeMobile(text: string): string {
  if (/^09\d{9}$/.test(text)) return `+63${text.slice(1)}`;
  if (/^639\d{9}$/.test(text)) return `+${text}`;
  return text;
}

/**
 * Refuse a send the source cannot cover, with the real body: `Insufficient balance.` under
 * `non_field_errors` (as sell orders answer it). Call it inside the unit of work that debits.
 */
export function requireBalance(ledger: LedgerApi, accountId: string, amount: bigint): void {
  if (ledger.get(accountId)!.balance < amount)
    throw ApiError.general('insufficient_balance', 'Insufficient balance.');
}

export interface TransferDeps {
  transfers: TransferRepository;
  ledger: LedgerApi;
  identities: IdentitiesApi;
  unitOfWork: UnitOfWork;
  clock: Clock;
  /** Settlements are written on the owner's tenant clock; new sends tell the due work when they settle. */
  tenants: Pick<TenantClocks, 'within'>;
  dueWork: Pick<DueWork, 'expect'>;
  ids: IdFactory;
  /** Seconds on the sandbox clock before a pending transfer settles by itself (0: only by the control API). */
  settleSeconds: () => number;
}

/** The system account that holds a pending transfer's money, one per currency (made on first use). */
function clearingAccount(ledger: LedgerApi, currency: string): string {
  const id = `system-transfer-clearing-${currency.toLowerCase()}`;
  if (!ledger.get(id))
    ledger.createAccount({
      id,
      ownerType: 'system',
      ownerId: 'sandbox',
      name: `Transfers in flight (${currency})`,
      currency,
      allowNegative: true,
    });
  return id;
}

/**
 * Transfers between sandbox wallet accounts (docs/design.md#public-api), from one of the owner's accounts to another account id, or
 * to a customer's wallet in the same currency found by email or mobile number. As on the real service a
 * transfer is created `pending`: the amount leaves the source at once and waits in a clearing account;
 * it reaches the target when the transfer settles (`success`, after `settleSeconds` on the sandbox clock
 * or through the control API), or goes back to the source when it fails (`failed`, control API only).
 */
export function createTransferService(d: TransferDeps) {
  /**
   * The account to credit, within the app's tenant only (base data or its workspace): an account or
   * customer of another tenant answers exactly as an unknown one, so nothing leaks across tenants.
   */
  function target(address: string, currency: string, workspaceId: string | null): Account {
    const text = address.trim();
    const found = ID_PATTERN.test(text) ? d.ledger.get(text) : undefined;
    const account =
      found && d.identities.workspaceOfOwner(found.owner_type, found.owner_id) === workspaceId
        ? found
        : undefined;
    if (account) {
      if (account.currency !== currency) {
        throw ApiError.field(
          'target_address',
          `Target account holds ${account.currency}, not ${currency}.`,
        );
      }
      return account;
    }
    // Any wallet user of the tenant: a customer, or a developer (an application's owner), as on the real service.
    const customer = d.identities.walletUserByAddress(normalizeMobile(text), workspaceId);
    // The customer's oldest wallet in the currency: the one fixtures and the control API fund.
    const wallet =
      customer &&
      d.ledger
        .byOwner('user', customer.id)
        .filter((a) => a.currency === currency)
        .at(-1);
    if (customer && !wallet)
      throw ApiError.field(
        'target_address',
        `The recipient has no ${currency} wallet.`,
        'unknown_target',
      );
    if (!wallet) {
      throw ApiError.field(
        'target_address',
        `No wallet account, customer email or mobile number matches "${text}".`,
        'unknown_target',
      );
    }
    return wallet;
  }

  /** Move a pending transfer's held money on: to the target (`success`) or back to the source (`failed`). */
  function finish(row: TransferRow, to: Outcome): void {
    const clearing = clearingAccount(d.ledger, row.currency);
    const destination = to === 'success' ? row.target_account_id! : row.account_id;
    d.ledger.post(to === 'success' ? 'transfer_settlement' : 'transfer_refund', row.id, [
      { accountId: clearing, amount: -row.amount },
      { accountId: destination, amount: row.amount },
    ]);
    d.transfers.setStatus(row.id, to);
  }

  /**
   * What every send from a wallet checks before money moves (transfers and crypto payments alike): the
   * OTP rule, that `account` is one of the app owner's, the amount, and the target within the tenant.
   */
  function prepareSend(
    app: App,
    body: {
      account: string;
      target_address: string;
      amount: number | string;
      otp?: string;
      code?: string;
    },
    headerOtp: string | undefined,
  ): { source: Account; amount: bigint; to: Account } {
    requireOtp(app, [body.otp, body.code, headerOtp], d.clock.now());
    const source = d.ledger.get(body.account);
    if (!source || source.owner_type !== 'user' || source.owner_id !== app.owner_id) {
      throw ApiError.field('account', `Account "${body.account}" is not one of your accounts.`);
    }
    const amount = parseAmount(body.amount);
    const to = target(body.target_address, source.currency, app.workspace_id);
    if (to.id === source.id)
      throw ApiError.field('target_address', 'Cannot send to the same account.');
    return { source, amount, to };
  }

  const sends = pendingSendMethods({
    deps: d,
    identities: d.identities,
    job: 'transfers.settlement',
    noun: 'Transfer',
    listKey: 'transfers',
    store: d.transfers,
    finish,
    view: transferResource,
  });

  return {
    prepareSend,

    /**
     * The wallet a `target_address` names (account id, customer email or mobile number) within the app's
     * tenant, in `currency`; refused with the very 400 a transfer gives. Sell orders through
     * `coins_transfer` send to it.
     */
    resolveTarget: (app: App, address: string, currency: string): Account =>
      target(address, currency, app.workspace_id),

    create(
      app: App,
      body: {
        account: string;
        target_address: string;
        amount: number | string;
        otp?: string;
        code?: string;
      },
      headerOtp: string | undefined,
    ) {
      const { source, amount, to } = prepareSend(app, body, headerOtp);
      return d.unitOfWork(() => {
        requireBalance(d.ledger, source.id, amount);
        d.ledger.requireRoom(to.id, amount);
        const id = d.ids();
        const createdAt = d.clock.now();
        const tx = d.ledger.post('transfer', id, [
          { accountId: source.id, amount: -amount },
          { accountId: clearingAccount(d.ledger, source.currency), amount },
        ]);
        d.transfers.insert({
          id,
          owner_id: app.owner_id,
          account_id: source.id,
          target_account_id: to.id,
          target_address: body.target_address,
          amount,
          currency: source.currency,
          status: 'pending',
          ledger_transaction_id: tx,
          created_at: createdAt,
        });
        expectSettlement(d, createdAt);
        return transferResource(d.transfers.forOwner(id, app.owner_id)!);
      });
    },

    ...sends,
  };
}

export type TransferService = ReturnType<typeof createTransferService>;
