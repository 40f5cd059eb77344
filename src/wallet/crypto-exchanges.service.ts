import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../http/api-error.js';
import type { AppRow } from '../identities/identities.repo.js';
import { developerCurrency } from '../ledger/accounts.service.js';
import type { AccountRow, LedgerRepository } from '../ledger/ledger.repo.js';
import { formatTimestamp, type Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { formatMoney, parseAmount } from '../shared/money.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import type { CryptoExchangeRecord, CryptoExchangeRepository, Row } from './wallet.repo.js';
import { walletSystemAccount } from './wallet-system-accounts.js';
import { coinUnitsFor, PESOS_PER_COIN } from '../shared/rates.js';

/** Every route of the table, both ways between the peso wallet and each coin (developer currency codes). */
export function cryptoRoutes() {
  return Object.entries(PESOS_PER_COIN).flatMap(([coin, price]) =>
    (
      [
        ['PBTC', coin],
        [coin, 'PBTC'],
      ] as const
    ).map(([source, target]) => ({ id: `${source}-${target}`, source_currency: source, target_currency: target, rate: price.toString() })),
  );
}

/**
 * The converted amount in 1e-8 units, rounded to the nearest unit (halves up), as the real recorded
 * conversion is. Undefined when the table has no route between the two ledger currencies.
 */
export function convert(units: bigint, from: string, to: string): { rate: bigint; amount: bigint } | undefined {
  if (from === 'PHP' && PESOS_PER_COIN[to]) return { rate: PESOS_PER_COIN[to], amount: coinUnitsFor(units, PESOS_PER_COIN[to]) };
  if (to === 'PHP' && PESOS_PER_COIN[from]) return { rate: PESOS_PER_COIN[from], amount: units * PESOS_PER_COIN[from] };
  return undefined;
}

/** The `crypto-exchange` resource, field for field as the real service answers a conversion. */
export function cryptoExchangeResource(r: Row<CryptoExchangeRecord>) {
  return {
    id: r.id,
    source_account: r.source_account_id,
    target_account: r.target_account_id,
    rate: r.rate,
    source_amount: formatMoney(r.source_amount),
    target_amount: formatMoney(r.target_amount),
    source_currency: developerCurrency(r.source_currency),
    target_currency: developerCurrency(r.target_currency),
    owner_payment: r.owner_payment,
    trader_payment: r.trader_payment,
    reference: {},
    status: r.status,
    created_at: formatTimestamp(Number(r.created_at)),
  };
}

export interface CryptoExchangeDeps {
  exchanges: CryptoExchangeRepository;
  ledger: LedgerRepository;
  unitOfWork: UnitOfWork;
  clock: Clock;
  ids: IdFactory;
}

/**
 * Conversions between two accounts of the same owner at the fixed table. Each moves money in two
 * balanced ledger transactions, one per currency, through the sandbox's exchange desk accounts: the
 * owner pays the desk in the source currency (`owner_payment`) and the desk pays the owner in the
 * target currency (`trader_payment`). Instant: a conversion is `success` when it is answered.
 */
export function createCryptoExchangeService(d: CryptoExchangeDeps) {
  function ownAccount(app: AppRow, id: string, field: string): AccountRow {
    const account = d.ledger.get(id);
    if (!account || account.owner_type !== 'user' || account.owner_id !== app.owner_id) {
      throw ApiError.field(field, `Account "${id}" is not one of your accounts.`);
    }
    return account;
  }

  return {
    create(app: AppRow, body: { source_account: string; target_account: string; amount: number | string }) {
      const source = ownAccount(app, body.source_account, 'source_account');
      const target = ownAccount(app, body.target_account, 'target_account');
      if (source.currency === target.currency) {
        throw ApiError.field('target_account', `Both accounts hold ${developerCurrency(source.currency)}; choose an account in another currency.`);
      }
      const amount = parseAmount(body.amount);
      const route = convert(amount, source.currency, target.currency);
      const pair = `${developerCurrency(source.currency)} to ${developerCurrency(target.currency)}`;
      if (!route) throw ApiError.field('target_account', `No conversion route from ${pair}.`);
      if (route.amount <= 0n) throw ApiError.field('amount', `Amount is too small to convert from ${pair}.`);
      return d.unitOfWork(() => {
        if (d.ledger.get(source.id)!.balance < amount) throw ApiError.field('amount', 'Insufficient balance.', 'insufficient_balance');
        const id = d.ids();
        const ownerPayment = d.ledger.post('crypto_exchange', id, [
          { accountId: source.id, amount: -amount },
          { accountId: walletSystemAccount(d.ledger, 'exchange', source.currency), amount },
        ]);
        const traderPayment = d.ledger.post('crypto_exchange', id, [
          { accountId: walletSystemAccount(d.ledger, 'exchange', target.currency), amount: -route.amount },
          { accountId: target.id, amount: route.amount },
        ]);
        d.exchanges.insert({
          id,
          owner_id: app.owner_id,
          source_account_id: source.id,
          target_account_id: target.id,
          rate: route.rate.toString(),
          source_amount: amount,
          target_amount: route.amount,
          source_currency: source.currency,
          target_currency: target.currency,
          owner_payment: ownerPayment,
          trader_payment: traderPayment,
          status: 'success',
          created_at: d.clock.now(),
        });
        return cryptoExchangeResource(d.exchanges.byId(id)!);
      });
    },

    list(ownerId: string, query: { page?: number; per_page?: number }) {
      const req = pageRequest(query);
      return {
        'crypto-exchanges': d.exchanges.page(ownerId, req.limit, req.offset).map(cryptoExchangeResource),
        meta: pageMeta(req, d.exchanges.count(ownerId)),
      };
    },
  };
}

export type CryptoExchangeService = ReturnType<typeof createCryptoExchangeService>;
