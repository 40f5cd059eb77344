import type { Faker } from '@faker-js/faker';
import type { FixturePayoutOutlet, Fixtures } from '../fixtures/fixture-types.js';
import { fund } from '../fixtures/load.js';
import type { ServicesWith } from '../module.types.js';
import { formatMoney, fractionOf, parseAmount } from '../shared/money.js';
import { CASH_PAYMENT_COLLECTORS, instructionsFor } from './buy-orders.model.js';
import type { OrderRepository } from './orders.references.js';
import type { BuyOrderStatus, SellOrderStatus } from './orders.repo.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'ledger'>;

/** Enough history per application that paging matters (issue 5: at least 250 of each). */
export const SELL_ORDERS_PER_APP = 257;
export const BUY_ORDERS_PER_APP = 253;
const DAY = 86400;
const HISTORY_DAYS = 180;
const BUY_LIFETIME = DAY;

export interface FixtureSellOrder {
  id: string;
  owner_id: string;
  account_id: string;
  outlet_id: string;
  amount: string;
  fee: string;
  currency: string;
  delivery_status: SellOrderStatus;
  external_transaction_id: string | null;
  target_address: string | null;
  fields: Record<string, string>;
  /** Seconds before the moment the fixtures are loaded: history stays recent whenever it is loaded. */
  age_seconds: number;
}

export interface FixtureBuyOrder {
  id: string;
  owner_id: string;
  amount: string;
  currency: string;
  payment_method: string;
  status: BuyOrderStatus;
  age_seconds: number;
}

const IN_FLIGHT: SellOrderStatus[] = ['pending_payment', 'processing'];

/** Exact fee of an amount at an outlet, from the generated brackets (same rule as outlets.service). */
function feeAt(outlet: FixturePayoutOutlet, units: bigint): bigint {
  const b = outlet.fees.find(
    (x) =>
      parseAmount(x.from_amount, { allowZero: true }) <= units &&
      units <= parseAmount(x.until_amount),
  );
  if (!b) throw new Error(`no bracket of ${outlet.id} holds ${units}`);
  return fractionOf(units, b.fee_percent) + parseAmount(b.fee_amount, { allowZero: true });
}

/** Ages in seconds; every 40th repeats the one before, so the id tie-break of the list order is exercised. */
function ages(f: Faker, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push(i % 40 === 39 ? out[i - 1]! : f.number.int({ min: 60, max: HISTORY_DAYS * DAY }));
  return out;
}

/** Fixture generator (registered in src/fixtures/extensions.ts): sell and buy order history per developer. */
export function generateOrderFixtures(f: Faker, fx: Fixtures): void {
  const hex = () => f.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' });
  const sell: FixtureSellOrder[] = [];
  const buy: FixtureBuyOrder[] = [];
  for (const dev of fx.developers) {
    const wallet = dev.accounts.find((a) => a.currency === 'PHP')!;
    const sellAges = ages(f, SELL_ORDERS_PER_APP);
    for (const age of sellAges) {
      const outlet = f.helpers.arrayElement(fx.payout_outlets);
      const status = f.helpers.weightedArrayElement<SellOrderStatus>([
        { weight: 55, value: 'completed' },
        { weight: 12, value: 'pending_payment' },
        { weight: 11, value: 'processing' },
        { weight: 12, value: 'failed' },
        { weight: 10, value: 'canceled' },
      ]);
      const pesos = f.number.int({ min: 50, max: f.datatype.boolean(0.1) ? 120000 : 20000 });
      const amount = `${pesos}.${f.string.numeric(f.datatype.boolean(0.1) ? 8 : 2)}`;
      const units = parseAmount(amount, { allowZero: true });
      const ewallet = outlet.category === 'e-wallet';
      const target = ewallet ? `+639${f.string.numeric(9)}` : f.finance.accountNumber(12);
      sell.push({
        id: hex(),
        owner_id: dev.id,
        account_id: wallet.id,
        outlet_id: outlet.id,
        amount: formatMoney(units),
        fee: formatMoney(feeAt(outlet, units)),
        currency: outlet.currency,
        delivery_status: status,
        external_transaction_id: f.datatype.boolean(0.8)
          ? `payout-${f.string.alphanumeric({ length: 12, casing: 'lower' })}`
          : null,
        target_address: target,
        fields: ewallet
          ? { mobile_number: target }
          : { account_name: f.person.fullName(), account_number: target },
        // Orders still in flight are recent; old ones have long settled.
        age_seconds: IN_FLIGHT.includes(status) ? Math.min(age, 2 * DAY) : age,
      });
    }
    for (const age of ages(f, BUY_ORDERS_PER_APP)) {
      const status = f.helpers.weightedArrayElement<BuyOrderStatus>([
        { weight: 45, value: 'released' },
        { weight: 15, value: 'pending_payment' },
        { weight: 15, value: 'payment_received' },
        { weight: 12, value: 'canceled' },
        { weight: 13, value: 'escrow_expired' },
      ]);
      buy.push({
        id: hex(),
        owner_id: dev.id,
        amount: `${f.number.int({ min: 100, max: 30000 })}.${f.string.numeric(2)}`,
        currency: 'PHP',
        payment_method: f.helpers.arrayElement([
          'cash_payment',
          'seven_connect_deposit',
          'mlhuillier_deposit',
          'cebuana_lhuillier_deposit',
          'bayad_deposit',
        ]),
        status,
        // A buy order still waiting for payment is younger than its lifetime (it has not expired yet).
        age_seconds: status === 'pending_payment' ? age % (BUY_LIFETIME - 3600) : age,
      });
    }
  }
  fx.sell_orders = sell;
  fx.buy_orders = buy;
}

/**
 * Fixture section loader (runs inside the fixture transaction). Order history is pre-settled: the
 * wallet balances in the fixtures are the balances after it, and settled orders (completed, failed,
 * canceled) carry no ledger postings. Orders still in flight (pending_payment, processing) hold their
 * money in payout clearing like a live order, so that a later refund or payout through the control API
 * is backed: each is funded from outside and debited at once, which leaves the wallet where the
 * fixture says and keeps every ledger invariant.
 */
export function loadOrderFixtures(s: ModuleServices, orders: OrderRepository, fx: Fixtures): void {
  const now = s.clock.now();
  for (const o of (fx.sell_orders ?? []) as FixtureSellOrder[]) {
    const amount = parseAmount(o.amount);
    const fee = parseAmount(o.fee, { allowZero: true });
    let debit: string | null = null;
    if (IN_FLIGHT.includes(o.delivery_status)) {
      fund(s, o.account_id, amount + fee, 'fixture_history_funding');
      debit = s.ledger.post('sell_order', o.id, [
        { accountId: o.account_id, amount: -(amount + fee) },
        { accountId: s.ledger.systemAccount('payoutClearing', o.currency), amount },
        { accountId: s.ledger.systemAccount('payoutFees', o.currency), amount: fee },
      ]);
    }
    const created = now - o.age_seconds * 1_000_000;
    orders.insertSell({
      id: o.id,
      owner_id: o.owner_id,
      account_id: o.account_id,
      outlet_id: o.outlet_id,
      amount,
      fee,
      currency: o.currency,
      delivery_status: o.delivery_status,
      external_transaction_id: o.external_transaction_id,
      target_address: o.target_address,
      // The generated history has no coins_transfer orders.
      target_account_id: null,
      fields: JSON.stringify(o.fields),
      debit_transaction_id: debit,
      // History stays as generated; only orders created through the API move on the clock.
      auto_advance: 0,
      created_at: created,
      status_changed_at: created,
    });
  }
  const walletOf = new Map(
    fx.developers.flatMap((d) => d.accounts.map((a) => [`${d.id}:${a.currency}`, a.id] as const)),
  );
  for (const o of (fx.buy_orders ?? []) as FixtureBuyOrder[]) {
    const created = now - o.age_seconds * 1_000_000;
    const amount = parseAmount(o.amount);
    // History, not the clock's: paid an hour in, canceled or released some minutes after.
    const paid = ['payment_received', 'released'].includes(o.status)
      ? Math.min(created + 3600 * 1_000_000, now)
      : null;
    const outlet = fx.payin_outlets.find((p) => p.collector === o.payment_method);
    const cashOutlets = fx.payin_outlets
      .filter((p) => CASH_PAYMENT_COLLECTORS.includes(p.collector))
      .map((p) => p.name);
    orders.insertBuy({
      id: o.id,
      owner_id: o.owner_id,
      account_id: walletOf.get(`${o.owner_id}:${o.currency}`) ?? null,
      amount,
      currency: o.currency,
      payment_method: o.payment_method,
      instructions: instructionsFor(
        { collector: o.payment_method, outlet, cashOutlets },
        { id: o.id, amount, currency: o.currency },
      ),
      status: o.status,
      marked_paid_at: paid,
      canceled_at: o.status === 'canceled' ? Math.min(created + 600 * 1_000_000, now) : null,
      // History stays as generated: a paid fixture order is released only through the control API.
      auto_release: 0,
      created_at: created,
      expires_at: created + BUY_LIFETIME * 1_000_000,
      status_changed_at: paid ?? created,
    });
  }
}
