import type { DueWork } from '../clock/due-work.js';
import type { TenantClocks } from '../clock/tenant-clocks.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { App, IdentitiesApi } from '../identities/identities.api.js';
import type { LedgerApi } from '../ledger/ledger.api.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { requireBalance, type TransferService } from '../transfers/transfers.service.js';
import {
  expectSettlement,
  pendingSendMethods,
  type Outcome,
} from '../transfers/transfers.settle-later.js';
import type { CryptoPaymentRecord, CryptoPaymentRepository, Row } from './wallet.repo.js';
import { walletSystemAccount } from './wallet-system-accounts.js';
import { cryptoPaymentResource } from './wallet.view.js';

export interface CryptoPaymentDeps {
  payments: CryptoPaymentRepository;
  /** Resolves the address exactly as a transfer's `target_address` (same tenant rules). */
  transfers: Pick<TransferService, 'prepareSend'>;
  ledger: LedgerApi;
  unitOfWork: UnitOfWork;
  clock: Clock;
  /** Settlements are written on the owner's tenant clock; new sends tell the due work when they settle. */
  tenants: Pick<TenantClocks, 'within'>;
  dueWork: Pick<DueWork, 'expect'>;
  ids: IdFactory;
  /** A deleted workspace's sends are refused by the control API (requireLiveWorkspace). */
  identities: Pick<IdentitiesApi, 'ownerWorkspaceEnded'>;
  /** Sandbox seconds before a pending payment settles (the transfers' `--transfer-delay`; 0: never by itself). */
  settleSeconds: () => number;
}

/**
 * Payments from one of the owner's accounts to an address. Like a transfer: created `pending` with the
 * amount held in a clearing account, and settled (`success`, the amount reaches the target) by the
 * sandbox clock after the delay or through the control API, which can also fail it (`failed`, the
 * amount goes back to the paying account; a crypto payment carries no fee).
 */
export function createCryptoPaymentService(d: CryptoPaymentDeps) {
  /** Moves the held amount on: to the target (`success`) or back to the paying account (`failed`). */
  function finish(row: Row<CryptoPaymentRecord>, to: Outcome): void {
    d.ledger.post(
      to === 'success' ? 'crypto_payment_settlement' : 'crypto_payment_refund',
      row.id,
      [
        {
          accountId: walletSystemAccount(d.ledger, 'payment-clearing', row.currency),
          amount: -row.amount,
        },
        {
          accountId: to === 'success' ? row.target_account_id : row.account_id,
          amount: row.amount,
        },
      ],
    );
    d.payments.setStatus(row.id, to);
  }

  const sends = pendingSendMethods({
    deps: d,
    identities: d.identities,
    job: 'crypto-payments.settlement',
    noun: 'Crypto payment',
    listKey: 'crypto-payments',
    store: d.payments,
    finish,
    view: cryptoPaymentResource,
  });

  return {
    create(
      app: App,
      body: {
        account: string;
        target_address: string;
        amount: number | string;
        message?: string;
        otp?: string;
        code?: string;
      },
      headerOtp: string | undefined,
    ) {
      const { source, amount, to } = d.transfers.prepareSend(app, body, headerOtp);
      return d.unitOfWork(() => {
        requireBalance(d.ledger, source.id, amount);
        d.ledger.requireRoom(to.id, amount);
        const id = d.ids();
        const createdAt = d.clock.now();
        d.ledger.post('crypto_payment', id, [
          { accountId: source.id, amount: -amount },
          { accountId: walletSystemAccount(d.ledger, 'payment-clearing', source.currency), amount },
        ]);
        d.payments.insert({
          id,
          owner_id: app.owner_id,
          account_id: source.id,
          target_account_id: to.id,
          target_address: body.target_address,
          amount,
          currency: source.currency,
          message: body.message ?? '',
          status: 'pending',
          created_at: createdAt,
        });
        expectSettlement(d, createdAt);
        return cryptoPaymentResource(d.payments.byId(id)!);
      });
    },

    ...sends,
  };
}

export type CryptoPaymentService = ReturnType<typeof createCryptoPaymentService>;
