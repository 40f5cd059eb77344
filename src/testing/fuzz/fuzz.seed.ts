import type { Fixtures } from '../../fixtures/fixture-types.js';
import { itemAt } from '../../shared/defined.js';
import type { PoolName } from './fuzz.pools.js';

/** One step of seeding the pools: ids added to a pool, or marked in flight there (still able to move). */
export interface SeedStep {
  pool: PoolName;
  ids: string[];
  inFlight: boolean;
}

/**
 * The fixtures' ids the fuzzer starts from (and starts from again after `POST /_sandbox/reset`), in the
 * order they go into the pools: the first developer's orders and transfers (those in flight marked so),
 * merchants, api keys, wallets, payers, outlets and the quote service's markets.
 */
export function fixtureSeed(fixtures: Fixtures): SeedStep[] {
  const devs = fixtures.developers;
  const add = (pool: PoolName, ...ids: string[]): SeedStep => ({ pool, ids, inFlight: false });
  const markInFlight = (pool: PoolName, ...ids: string[]): SeedStep => ({
    pool,
    ids,
    inFlight: true,
  });
  // Order sections are optional in the fixture type (added by the orders module).
  const section = (name: string) =>
    (
      (fixtures[name] ?? []) as Array<{
        id: string;
        owner_id: string;
        status?: string;
        delivery_status?: string;
      }>
    ).filter((o) => o.owner_id === itemAt(devs, 0).id);
  const moving = (name: string, statuses: string[]) =>
    section(name)
      .filter((o) => statuses.includes(o.delivery_status ?? o.status ?? ''))
      .slice(0, 10)
      .map((o) => o.id);
  return [
    add(
      'sellOrder',
      ...section('sell_orders')
        .slice(0, 50)
        .map((o) => o.id),
    ),
    add(
      'buyOrder',
      ...section('buy_orders')
        .slice(0, 50)
        .map((o) => o.id),
    ),
    markInFlight('sellOrder', ...moving('sell_orders', ['pending_payment', 'processing'])),
    markInFlight('buyOrder', ...moving('buy_orders', ['pending_payment'])),
    add(
      'transfer',
      ...section('transfers')
        .slice(0, 50)
        .map((o) => o.id),
    ),
    add('merchant', ...fixtures.merchants.map((m) => m.id)),
    add('apiKey', ...devs.map((d) => d.app.api_key)),
    add(
      'account',
      ...devs.flatMap((d) => d.accounts.map((a) => a.id)),
      ...fixtures.customers.flatMap((c) => c.accounts.map((a) => a.id)),
    ),
    add('account', ...fixtures.merchants.map((m) => m.wallet_account_id)),
    add('email', ...fixtures.customers.flatMap((c) => [c.email, c.mobile_number])),
    add('outlet', ...fixtures.payout_outlets.map((o) => o.id)),
    // The quote service's markets (one per coin of the sandbox's rate table).
    add('market', 'BTC-PHP', 'ETH-PHP'),
  ];
}
