import { createHmac } from 'node:crypto';
import type { Fixtures } from '../../fixtures/fixture-types.js';
import { itemAt, required } from '../../shared/defined.js';
import {
  POOL_CAP,
  poolOfKey,
  SETTLES_BY_STATUS,
  STATEFUL,
  TRANSFER_DELAY_MS,
  type PoolName,
} from './fuzz.pools.js';

/** The workspace `createWorkspace` answers, as far as the fuzzer uses it. */
interface WorkspaceAnswer {
  id: string;
  app?: {
    api_key: string;
    api_secret: string;
    mfa_whitelisted: boolean;
    owner: { accounts: Array<{ id: string; currency: string }> };
  };
  customer?: { email: string };
}

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
    const { fixtures } = this;
    const devs = fixtures.developers;
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
    this.add(
      'sellOrder',
      ...section('sell_orders')
        .slice(0, 50)
        .map((o) => o.id),
    );
    this.add(
      'buyOrder',
      ...section('buy_orders')
        .slice(0, 50)
        .map((o) => o.id),
    );
    const moving = (name: string, statuses: string[]) =>
      section(name)
        .filter((o) => statuses.includes(o.delivery_status ?? o.status ?? ''))
        .slice(0, 10)
        .map((o) => o.id);
    this.markInFlight('sellOrder', ...moving('sell_orders', ['pending_payment', 'processing']));
    this.markInFlight('buyOrder', ...moving('buy_orders', ['pending_payment']));
    this.add(
      'transfer',
      ...section('transfers')
        .slice(0, 50)
        .map((o) => o.id),
    );
    this.add('merchant', ...fixtures.merchants.map((m) => m.id));
    this.add('apiKey', ...devs.map((d) => d.app.api_key));
    this.add(
      'account',
      ...devs.flatMap((d) => d.accounts.map((a) => a.id)),
      ...fixtures.customers.flatMap((c) => c.accounts.map((a) => a.id)),
    );
    this.add('account', ...fixtures.merchants.map((m) => m.wallet_account_id));
    this.add('email', ...fixtures.customers.flatMap((c) => [c.email, c.mobile_number]));
    this.add('outlet', ...fixtures.payout_outlets.map((o) => o.id));
    // The quote service's markets (one per coin of the sandbox's rate table).
    this.add('market', 'BTC-PHP', 'ETH-PHP');
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

  private markInFlight(pool: PoolName, ...ids: string[]): void {
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

  private due(pool: PoolName, id: string, at: number): void {
    if (Number.isFinite(at)) this.dueAt.set(`${pool} ${id}`, at);
  }

  /** What a clock answer says: the sandbox's time, so that what fell due on it is no longer movable. */
  private clock(now: string): void {
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

  /** Remember ids found in an answer, by the name of the object that holds them. */
  harvest(operationId: string, body: unknown): void {
    const ws =
      operationId === 'createWorkspace'
        ? (body as { workspace?: WorkspaceAnswer }).workspace
        : undefined;
    const account = ws?.app?.owner.accounts.find((a) => a.currency === 'PHP')?.id;
    if (ws?.app && ws.customer && account !== undefined) {
      const app = {
        key: ws.app.api_key,
        secret: ws.app.api_secret,
        whitelisted: ws.app.mfa_whitelisted,
      };
      this.workspaces.set(ws.id, { app, account, customerEmail: ws.customer.email });
    }
    // What a create answers is new (and often still pending); what a list or read answers may be old history.
    // A triggered event answers the (often new, still pending) invoice it happened to.
    const creates = /^(create|place)/.test(operationId) || operationId === 'triggerEvent';
    if (/Clock$/.test(operationId) && typeof (body as { now?: unknown })?.now === 'string')
      this.clock((body as { now: string }).now);
    const add = (pool: PoolName, id: string, o: Record<string, unknown>) => {
      const status = typeof o.status === 'string' ? o.status : undefined;
      // A buy order can be paid or canceled only while `pending_payment`.
      const stillPending = pool === 'buyOrder' ? 'pending_payment' : 'pending';
      const knownSettled =
        (SETTLES_BY_STATUS.has(pool) || pool === 'buyOrder') &&
        status !== undefined &&
        status !== stillPending;
      if (knownSettled) return void (this.add(pool, id), this.settle(pool, id));
      if (creates && STATEFUL.has(pool)) this.markInFlight(pool, id);
      else this.add(pool, id);
      if (pool === 'invoice' && typeof o.expires_at === 'string')
        this.due(pool, id, Date.parse(o.expires_at));
      if (pool === 'transfer' && typeof o.created_at === 'string')
        this.due(pool, id, Date.parse(o.created_at) + TRANSFER_DELAY_MS);
      if (pool === 'invoice' && typeof o.amount_due === 'string')
        this.invoiceDue.set(id, Number(o.amount_due));
      if (pool === 'invoice' && Array.isArray(o.supported_payment_collectors))
        this.invoiceCollectors.set(id, o.supported_payment_collectors as string[]);
      if (pool === 'invoice' && typeof o.current_payment_reference_number === 'string')
        this.referenceInvoice.set(o.current_payment_reference_number, id);
    };
    if (operationId === 'exportSnapshot') this.snapshotDocument = body;
    // An address route is answered bare (no envelope key to walk under).
    if (operationId === 'createCryptoRoute') {
      const id = (body as { id?: unknown }).id;
      if (typeof id === 'string') this.add('cryptoRoute', id);
    }
    if (operationId === 'createSnapshot' || operationId === 'importSnapshot') {
      const id = (body as { snapshot?: { id?: unknown } }).snapshot?.id;
      if (typeof id === 'string') this.add('snapshot', id);
    }
    const walk = (v: unknown, parent: string) => {
      if (Array.isArray(v)) return v.forEach((x) => walk(x, parent));
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      const id = typeof o.id === 'string' ? o.id : undefined;
      const pool = id ? poolOfKey(parent, operationId) : undefined;
      if (id && pool) add(pool, id, o);
      if (typeof o.api_key === 'string') this.add('apiKey', o.api_key);
      if (typeof o.current_payment_reference_number === 'string')
        this.add('reference', o.current_payment_reference_number);
      if (typeof o.reference_number === 'string') this.add('reference', o.reference_number);
      // A workspace's customer is of that tenant only (kept in `workspaces`): not a payer for the base data.
      if (typeof o.email === 'string' && parent === 'customer' && operationId !== 'createWorkspace')
        this.add('email', o.email);
      for (const [k, x] of Object.entries(o)) if (x && typeof x === 'object') walk(x, k);
    };
    walk(body, '');
  }
}
