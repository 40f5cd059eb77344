import type { DueWork } from '../clock/due-work.js';
import type { TenantClocks } from '../clock/tenant-clocks.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../shared/api-error.js';
import type { App, IdentitiesApi } from '../identities/identities.api.js';
import { developerCurrency } from '../ledger/accounts.view.js';
import type { Account, LedgerApi } from '../ledger/ledger.api.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { formatMoneyShort, MAX_AMOUNT_UNITS, parseAmount } from '../shared/money.js';
import { requireBalance } from '../transfers/transfers.service.js';
import {
  expectSettlement,
  pendingSendMethods,
  type Outcome,
} from '../transfers/transfers.settle-later.js';
import type { CryptoExchangeRecord, CryptoExchangeRepository, Row } from './wallet.repo.js';
import { walletSystemAccount } from './wallet-system-accounts.js';
import { coinUnitsBought, PESOS_PER_COIN } from '../shared/rates.js';
import { cryptoExchangeResource } from './wallet.view.js';

/**
 * The converted amount in 1e-8 units. Pesos to a coin round down to a unit, in the house's favour: the
 * real recorded conversion (200 PBTC at "621822") rounded to the nearest unit (0.00032164 BTC), but
 * rounding up there and converting back at the same rate made money out of nothing (docs/fidelity.md,
 * section 3). A coin to pesos is exact. Undefined when the table has no route between the two currencies.
 */
export function convert(
  units: bigint,
  from: string,
  to: string,
): { rate: bigint; amount: bigint } | undefined {
  if (from === 'PHP' && PESOS_PER_COIN[to])
    return { rate: PESOS_PER_COIN[to], amount: coinUnitsBought(units, PESOS_PER_COIN[to]) };
  if (to === 'PHP' && PESOS_PER_COIN[from])
    return { rate: PESOS_PER_COIN[from], amount: units * PESOS_PER_COIN[from] };
  return undefined;
}

/** The create's body: the documented `source_amount` or `target_amount` (one of them), or the clients' `amount`. */
export interface CryptoExchangeCreateBody {
  source_account: string;
  target_account: string;
  source_amount?: number | string;
  target_amount?: number | string;
  amount?: number | string;
}

/**
 * The one amount of a create: `source_amount` (documented), `amount` (the npm clients' name for it; equal
 * when both are sent) or `target_amount` (documented: the amount to receive); a source and a target amount
 * together are refused, as the docs allow one of them.
 */
function amountOf(body: CryptoExchangeCreateBody): {
  field: 'source_amount' | 'amount' | 'target_amount';
  units: bigint;
} {
  const { source_amount: src, amount, target_amount: tgt } = body;
  if (tgt !== undefined && (src !== undefined || amount !== undefined))
    throw ApiError.field('target_amount', 'Give either source_amount or target_amount, not both.');
  if (tgt !== undefined) return { field: 'target_amount', units: parseAmount(tgt) };
  if (src === undefined && amount === undefined)
    throw ApiError.field('source_amount', 'This field is required.');
  if (src !== undefined && amount !== undefined && parseAmount(src) !== parseAmount(amount))
    throw ApiError.field('amount', 'Must equal source_amount.');
  return src !== undefined
    ? { field: 'source_amount', units: parseAmount(src) }
    : { field: 'amount', units: parseAmount(amount) };
}

/**
 * The source amount that converts to at least `target` units: pesos to a coin are exact at the rate, a coin
 * to pesos rounds the coin up to a unit. Undefined when the table has no route.
 */
export function sourceFor(target: bigint, from: string, to: string): bigint | undefined {
  if (from === 'PHP' && PESOS_PER_COIN[to]) return target * PESOS_PER_COIN[to];
  const rate = PESOS_PER_COIN[from];
  if (to === 'PHP' && rate) return (target + rate - 1n) / rate;
  return undefined;
}

export interface CryptoExchangeDeps {
  exchanges: CryptoExchangeRepository;
  ledger: LedgerApi;
  unitOfWork: UnitOfWork;
  clock: Clock;
  /** Settlements are written on the owner's tenant clock; new sends tell the due work when they settle. */
  tenants: Pick<TenantClocks, 'within'>;
  dueWork: Pick<DueWork, 'expect'>;
  ids: IdFactory;
  /** A deleted workspace's sends are refused by the control API (requireLiveWorkspace). */
  identities: Pick<IdentitiesApi, 'ownerWorkspaceEnded'>;
  /** Sandbox seconds before a pending conversion settles (the transfers' `--transfer-delay`; 0: never by itself). */
  settleSeconds: () => number;
}

/**
 * Conversions between two accounts of the same owner at the fixed table. As the real service answers a
 * conversion, it is created `pending`, in two balanced ledger transactions, one per currency, whose ids
 * the resource names: the owner's source amount goes into the in-flight account (`owner_payment`), and
 * the exchange desk puts the converted amount there too (`trader_payment`). It settles like a transfer
 * (after `--transfer-delay` on the sandbox clock, or through the control API): the desk takes the source
 * amount and the owner's target account receives the converted one. A failed conversion gives each
 * amount back to where it came from.
 */
export function createCryptoExchangeService(d: CryptoExchangeDeps) {
  function ownAccount(app: App, id: string, field: string): Account {
    const account = d.ledger.get(id);
    if (!account || account.owner_type !== 'user' || account.owner_id !== app.owner_id) {
      throw ApiError.field(field, `Account "${id}" is not one of your accounts.`);
    }
    return account;
  }

  const inFlight = (currency: string) =>
    walletSystemAccount(d.ledger, 'exchange-clearing', currency);

  /** Moves both held amounts on: to the desk and the owner (`success`), or back where they came from (`failed`). */
  function finish(row: Row<CryptoExchangeRecord>, to: Outcome): void {
    const kind = to === 'success' ? 'crypto_exchange_settlement' : 'crypto_exchange_refund';
    const desk = (currency: string) => walletSystemAccount(d.ledger, 'exchange', currency);
    d.ledger.post(kind, row.id, [
      { accountId: inFlight(row.source_currency), amount: -row.source_amount },
      {
        accountId: to === 'success' ? desk(row.source_currency) : row.source_account_id,
        amount: row.source_amount,
      },
    ]);
    d.ledger.post(kind, row.id, [
      { accountId: inFlight(row.target_currency), amount: -row.target_amount },
      {
        accountId: to === 'success' ? row.target_account_id : desk(row.target_currency),
        amount: row.target_amount,
      },
    ]);
    d.exchanges.setStatus(row.id, to);
  }

  const sends = pendingSendMethods({
    deps: d,
    identities: d.identities,
    job: 'conversions.settlement',
    noun: 'Conversion',
    listKey: 'crypto-exchanges',
    store: d.exchanges,
    finish,
    view: cryptoExchangeResource,
  });

  return {
    create(app: App, body: CryptoExchangeCreateBody) {
      const source = ownAccount(app, body.source_account, 'source_account');
      const target = ownAccount(app, body.target_account, 'target_account');
      if (source.currency === target.currency) {
        throw ApiError.field(
          'target_account',
          `Both accounts hold ${developerCurrency(source.currency)}; choose an account in another currency.`,
        );
      }
      const pair = `${developerCurrency(source.currency)} to ${developerCurrency(target.currency)}`;
      const given = amountOf(body);
      const amount =
        given.field === 'target_amount'
          ? sourceFor(given.units, source.currency, target.currency)
          : given.units;
      const route =
        amount === undefined ? undefined : convert(amount, source.currency, target.currency);
      if (amount === undefined || !route)
        throw ApiError.field('target_account', `No conversion route from ${pair}.`);
      if (route.amount <= 0n)
        throw ApiError.field(given.field, `Amount is too small to convert from ${pair}.`);
      if (route.amount > MAX_AMOUNT_UNITS) {
        throw ApiError.field(
          given.field,
          `The converted amount would exceed ${formatMoneyShort(MAX_AMOUNT_UNITS)} ${developerCurrency(target.currency)}.`,
        );
      }
      return d.unitOfWork(() => {
        requireBalance(d.ledger, source.id, amount);
        d.ledger.requireRoom(target.id, route.amount);
        const id = d.ids();
        const createdAt = d.clock.now();
        const ownerPayment = d.ledger.post('crypto_exchange', id, [
          { accountId: source.id, amount: -amount },
          { accountId: inFlight(source.currency), amount },
        ]);
        const traderPayment = d.ledger.post('crypto_exchange', id, [
          {
            accountId: walletSystemAccount(d.ledger, 'exchange', target.currency),
            amount: -route.amount,
          },
          { accountId: inFlight(target.currency), amount: route.amount },
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
          status: 'pending',
          created_at: createdAt,
        });
        expectSettlement(d, createdAt);
        return cryptoExchangeResource(d.exchanges.byId(id)!);
      });
    },

    ...sends,
  };
}

export type CryptoExchangeService = ReturnType<typeof createCryptoExchangeService>;
