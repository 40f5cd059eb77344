import { createHmac } from 'node:crypto';
import type { Fixtures } from '../../fixtures/fixture-types.js';
import { itemAt, required } from '../../shared/defined.js';
import { POOL_CAP, type PoolName } from './fuzz.pools.js';
import { fixtureSeed } from './fuzz.seed.js';

export interface SigningApp {
  key: string;
  secret: string;
  whitelisted: boolean;
}

/**
 * What the fuzzer knows about the sandbox under test: credentials, ids that exist (fixtures first,
 * then every id seen in an answer) and the HMAC nonces it used. Signing is done here with
 * node:crypto, independently of the sandbox's own code.
 */
export class FuzzWorld {
  readonly pools = new Map<PoolName, string[]>();
  /**
   * Ids of resources with a lifecycle that may still move (a subset of the pools, newest last): fixture
   * orders in flight, then what creates of this run answered.
   */
  private readonly inFlight = new Map<PoolName, string[]>();
  readonly apps: SigningApp[];
  readonly merchantTokens: string[];
  readonly ownAccount: string;
  /** The signing app's BTC wallet (the other side of a conversion). */
  readonly ownBtcAccount: string;
  readonly outlets: string[];
  /** The customers' peso wallets: where a transfer or a crypto payment in pesos can go. */
  readonly customerPesoAccounts: string[];
  private nonce = BigInt(Date.now()) * 1000n;
  /** Workspaces made during the run: a tenant of their own (app, wallet, customer), by workspace id. */
  readonly workspaces = new Map<
    string,
    { app: SigningApp; account: string; customerEmail: string }
  >();
  /**
   * When an in-flight item stops moving by itself on the sandbox clock (an invoice expires, a transfer
   * settles, an access token lapses), by pool and id: it is no longer offered as movable after that.
   */
  private readonly dueAt = new Map<string, number>();
  /** The sandbox clock's lead over this process's clock, from the last clock answer. */
  private clockOffsetMs = 0;
  /** The invoice a counter reference number pays, and the collectors each invoice accepts. */
  readonly referenceInvoice = new Map<string, string>();
  readonly invoiceCollectors = new Map<string, string[]>();
  /** What each invoice had left to pay when last seen. */
  readonly invoiceDue = new Map<string, number>();
  /** The app (api key) that issued each access token of the run. */
  readonly tokenApp = new Map<string, string>();
  /** The last snapshot document exported: what a valid import sends. */
  snapshotDocument: unknown;
  /** The last nonce each key had accepted (2xx), for replays; forgotten when the key is reset. */
  readonly accepted = new Map<
    string,
    { nonce: string; method: string; path: string; body: string }
  >();

  constructor(
    readonly baseUrl: string,
    readonly controlToken: string,
    readonly fixtures: Fixtures,
  ) {
    const devs = fixtures.developers;
    this.apps = devs.map((d) => ({
      key: d.app.api_key,
      secret: d.app.api_secret,
      whitelisted: d.app.mfa_whitelisted,
    }));
    this.merchantTokens = fixtures.merchants.flatMap((m) => [
      `Token ${m.merchant_api_token}`,
      ...(m.bearer_token ? [`Bearer ${m.bearer_token}`] : []),
    ]);
    const walletOfFirst = (currency: string) =>
      required(
        itemAt(devs, 0).accounts.find((a) => a.currency === currency),
        `the first developer's ${currency} wallet`,
      ).id;
    this.ownAccount = walletOfFirst('PHP');
    this.ownBtcAccount = walletOfFirst('BTC');
    this.outlets = fixtures.payout_outlets.map((o) => o.id);
    this.customerPesoAccounts = fixtures.customers.flatMap((c) =>
      c.accounts.filter((a) => a.currency === 'PHP').map((a) => a.id),
    );
    this.seedPools();
  }

  /** Pools hold the fixtures' ids again (after `POST /_sandbox/reset` nothing else exists). */
  seedPools(): void {
    this.pools.clear();
    this.inFlight.clear();
    this.workspaces.clear();
    this.dueAt.clear();
    this.referenceInvoice.clear();
    this.invoiceCollectors.clear();
    this.invoiceDue.clear();
    this.tokenApp.clear();
    this.clockOffsetMs = 0;
    for (const { pool, ids, inFlight } of fixtureSeed(this.fixtures))
      if (inFlight) this.markInFlight(pool, ...ids);
      else this.add(pool, ...ids);
  }

  add(pool: PoolName, ...values: string[]): void {
    const list = this.pools.get(pool) ?? [];
    for (const v of values) if (typeof v === 'string' && v && !list.includes(v)) list.push(v);
    if (list.length > POOL_CAP) list.splice(0, list.length - POOL_CAP);
    this.pools.set(pool, list);
  }

  pool(name: PoolName): string[] {
    return this.pools.get(name) ?? [];
  }

  /**
   * The ids of a pool that may still move, newest last: not settled by an answer, not due on the
   * sandbox clock. A reference number can move while its invoice can; an access token while it is live.
   */
  movable(name: PoolName): string[] {
    const now = Date.now() + this.clockOffsetMs;
    const live = (pool: PoolName, id: string) =>
      (this.dueAt.get(`${pool} ${id}`) ?? Infinity) > now;
    if (name === 'reference') {
      const invoices = new Set(this.movable('invoice'));
      return this.pool('reference').filter((ref) =>
        invoices.has(this.referenceInvoice.get(ref) ?? ''),
      );
    }
    if (name === 'accessToken')
      return this.pool('accessToken').filter((t) => live('accessToken', t));
    return (this.inFlight.get(name) ?? []).filter((id) => live(name, id));
  }

  /** The items are new and may still move (a create answered them, or a fixture is in flight). */
  markInFlight(pool: PoolName, ...ids: string[]): void {
    this.add(pool, ...ids);
    this.inFlight.set(
      pool,
      [...(this.inFlight.get(pool) ?? []).filter((id) => !ids.includes(id)), ...ids].slice(
        -POOL_CAP,
      ),
    );
  }

  /** The item can no longer move (paid, settled, expired): it stays in its pool for reads. */
  settle(pool: PoolName, id: string): void {
    const list = this.inFlight.get(pool);
    if (list?.includes(id))
      this.inFlight.set(
        pool,
        list.filter((x) => x !== id),
      );
  }

  /** The item is gone (deleted, revoked): nothing may point at it any more. */
  forget(pool: PoolName, id: string): void {
    this.settle(pool, id);
    this.pools.set(
      pool,
      this.pool(pool).filter((x) => x !== id),
    );
  }

  /** Every item of the pool is gone (all faults cleared). */
  forgetAll(pool: PoolName): void {
    this.pools.delete(pool);
    this.inFlight.delete(pool);
  }

  /** A new access token of an app, live until `expiresAt` on the sandbox clock. */
  addToken(apiKey: string, token: string, expiresAt: string): void {
    this.add('accessToken', token);
    this.tokenApp.set(token, apiKey);
    this.due('accessToken', token, Date.parse(expiresAt));
  }

  /** The item stops moving by itself at `at` on the sandbox clock. */
  due(pool: PoolName, id: string, at: number): void {
    if (Number.isFinite(at)) this.dueAt.set(`${pool} ${id}`, at);
  }

  /** What a clock answer says: the sandbox's time, so that what fell due on it is no longer movable. */
  clock(now: string): void {
    const at = Date.parse(now);
    if (Number.isFinite(at)) this.clockOffsetMs = at - Date.now();
  }

  nextNonce(): string {
    this.nonce += 1n;
    return String(this.nonce);
  }

  sign(app: SigningApp, nonce: string, url: string, body: string): string {
    return createHmac('sha256', app.secret)
      .update(nonce + url + body)
      .digest('hex');
  }
}
