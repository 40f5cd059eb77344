import type { Db } from '../db/open.js';
import { createAppTokenRepository } from './app-tokens.repo.js';
import {
  MERCHANT_SETTINGS,
  type App,
  type IdentitiesApi,
  type Merchant,
  type MerchantSetting,
  type NewApp,
  type User,
} from './identities.api.js';

// The rows of this module's tables are its domain types (identities.api.ts) column for column.
type MerchantRow = Merchant;
type AppRow = App;
type UserRow = User;

/** Merchants, HMAC applications and users (customers and developers). SQL only; no rules. */
/**
 * Listings and "the first" merchant/customer follow insertion order (rowid): the fixtures' own order
 * first — the order the README, the banner, the dashboard and the trigger speak of — then whatever
 * the control API or workspaces added. Timestamps are no sort key here: fixtures load within one
 * transaction and may share one, and ids are random.
 *
 * `inBatch` runs the nonce advance (one statement) inside the group commit (src/db/unit-of-work.ts), so
 * a signed request's nonce write shares a commit with the other writes of its turn of the event loop.
 */
const CACHE_LIMIT = 1000;

export function createIdentityRepository(
  db: Db,
  inBatch: <T>(work: () => T) => T = (work) => work(),
): IdentitiesApi {
  const disableMerchants = db.prepare('UPDATE merchants SET disabled = 1 WHERE workspace_id = ?');
  const disableApps = db.prepare('UPDATE apps SET disabled = 1 WHERE workspace_id = ?');
  const workspaceListeners: Array<(workspaceId: string) => void> = [];
  // A workspace ends (deleted or expired) by disabling all its merchants and apps together.
  const workspaceEnded = db.prepare(
    `SELECT 1 FROM merchants WHERE workspace_id = @ws AND disabled = 1
     UNION ALL SELECT 1 FROM apps WHERE workspace_id = @ws AND disabled = 1 LIMIT 1`,
  );
  const merchantByToken = db.prepare(
    'SELECT * FROM merchants WHERE (merchant_api_token = ? OR bearer_token = ?) AND disabled = 0',
  );
  const merchantById = db.prepare('SELECT * FROM merchants WHERE id = ?');
  const merchantsPage = db.prepare(
    'SELECT * FROM merchants WHERE disabled = 0 ORDER BY rowid LIMIT ? OFFSET ?',
  );
  const merchantsCount = db.prepare('SELECT COUNT(*) AS n FROM merchants WHERE disabled = 0');
  // One workspace's identities (a contract run sharing the sandbox walks its own lists).
  const merchantsOfPage = db.prepare(
    'SELECT * FROM merchants WHERE disabled = 0 AND workspace_id = ? ORDER BY rowid LIMIT ? OFFSET ?',
  );
  const merchantsOfCount = db.prepare(
    'SELECT COUNT(*) AS n FROM merchants WHERE disabled = 0 AND workspace_id = ?',
  );
  const firstMerchant = db.prepare(
    'SELECT * FROM merchants WHERE disabled = 0 AND workspace_id IS NULL ORDER BY rowid LIMIT 1',
  );
  const insertMerchant = db.prepare(
    `INSERT INTO merchants (id, name, merchant_api_token, bearer_token, callback_url, redirect_url, enabled_payment_collectors,
       max_invoice_amount, invoice_lifetime_seconds, callback_auth, wallet_account_id, workspace_id, created_at)
     VALUES (@id, @name, @merchant_api_token, @bearer_token, @callback_url, @redirect_url, @enabled_payment_collectors,
       @max_invoice_amount, @invoice_lifetime_seconds, @callback_auth, @wallet_account_id, @workspace_id, @created_at)`,
  );
  const appByKey = db.prepare('SELECT * FROM apps WHERE api_key = ? AND disabled = 0');
  const appsPage = db.prepare(
    'SELECT * FROM apps WHERE disabled = 0 ORDER BY rowid LIMIT ? OFFSET ?',
  );
  const appsCount = db.prepare('SELECT COUNT(*) AS n FROM apps WHERE disabled = 0');
  const appsOfPage = db.prepare(
    'SELECT * FROM apps WHERE disabled = 0 AND workspace_id = ? ORDER BY rowid LIMIT ? OFFSET ?',
  );
  const appsOfCount = db.prepare(
    'SELECT COUNT(*) AS n FROM apps WHERE disabled = 0 AND workspace_id = ?',
  );
  const insertApp = db.prepare(
    `INSERT INTO apps (api_key, api_secret, name, owner_id, mfa_whitelisted, otp_secret, last_nonce, workspace_id, created_at,
       business_account, daily_buy_limit)
     VALUES (@api_key, @api_secret, @name, @owner_id, @mfa_whitelisted, @otp_secret, NULL, @workspace_id, @created_at,
       @business_account, @daily_buy_limit)`,
  );
  // One atomic conditional advance: canonical decimal nonces compare by length, then lexically.
  let nonceWrites = 0;
  const advanceNonce = db.prepare(
    `UPDATE apps SET last_nonce = @nonce WHERE api_key = @key AND disabled = 0 AND (last_nonce IS NULL
       OR length(last_nonce) < length(@nonce) OR (length(last_nonce) = length(@nonce) AND last_nonce < @nonce))`,
  );
  const resetNonce = db.prepare('UPDATE apps SET last_nonce = NULL WHERE api_key = ?');
  const userById = db.prepare('SELECT * FROM users WHERE id = ?');
  // Scoped to one tenant: the base data (workspace NULL) or one live workspace. `IS` compares NULLs too.
  const userByLogin = db.prepare(
    `SELECT * FROM users WHERE kind = 'customer' AND (email = @login COLLATE NOCASE OR mobile_number = @login OR id = @login)
       AND workspace_id IS @workspace
       AND (workspace_id IS NULL OR workspace_id IN (SELECT id FROM workspaces WHERE deleted_at IS NULL))`,
  );
  // Any wallet user (a customer or an application's owner) by email, mobile number or id: who a send can reach.
  const walletUserByAddress = db.prepare(
    `SELECT * FROM users WHERE (email = @login COLLATE NOCASE OR mobile_number = @login OR id = @login)
       AND workspace_id IS @workspace
       AND (workspace_id IS NULL OR workspace_id IN (SELECT id FROM workspaces WHERE deleted_at IS NULL))
     ORDER BY kind = 'customer' DESC LIMIT 1`,
  );
  const customersPage = db.prepare(
    "SELECT * FROM users WHERE kind = 'customer' ORDER BY rowid LIMIT ? OFFSET ?",
  );
  const customersCount = db.prepare("SELECT COUNT(*) AS n FROM users WHERE kind = 'customer'");
  const customersOfPage = db.prepare(
    "SELECT * FROM users WHERE kind = 'customer' AND workspace_id = ? ORDER BY rowid LIMIT ? OFFSET ?",
  );
  const customersOfCount = db.prepare(
    "SELECT COUNT(*) AS n FROM users WHERE kind = 'customer' AND workspace_id = ?",
  );
  const emailTaken = db.prepare('SELECT 1 FROM users WHERE email = ? COLLATE NOCASE');
  const mobileTaken = db.prepare('SELECT 1 FROM users WHERE mobile_number = ?');
  const merchantOfWorkspace = db.prepare(
    'SELECT * FROM merchants WHERE workspace_id = ? AND disabled = 0 ORDER BY created_at LIMIT 1',
  );
  const firstCustomer = db.prepare(
    "SELECT * FROM users WHERE kind = 'customer' AND workspace_id IS ? ORDER BY rowid LIMIT 1",
  );
  const insertUser = db.prepare(
    `INSERT INTO users (id, kind, name, email, mobile_number, password, workspace_id, created_at)
     VALUES (@id, @kind, @name, @email, @mobile_number, @password, @workspace_id, @created_at)`,
  );

  // Credentials → row, for authentication (every API request looks one up: ~15-20 µs of SQLite per
  // lookup here). Found rows only (a miss is asked again), at most CACHE_LIMIT of each. Emptied by
  // every write to merchants or apps through this repository and by `forgetCached`, which the write
  // batch calls on every rollback and the sandbox on reset; no other code writes these tables.
  // By id too (every payment and every event's delivery row asks for its merchant), and the first
  // customer of each tenant (users are written only here: `insertUser` empties it).
  const merchantsByToken = new Map<string, MerchantRow>();
  const merchantsById = new Map<string, MerchantRow>();
  const appsByKey = new Map<string, AppRow>();
  const firstCustomers = new Map<string | null, UserRow | undefined>();
  const forgetCached = () => {
    merchantsByToken.clear();
    merchantsById.clear();
    appsByKey.clear();
    firstCustomers.clear();
  };
  const remember = <T>(cache: Map<string, T>, key: string, row: T | undefined): T | undefined => {
    if (row === undefined) return undefined;
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, row);
    return row;
  };

  /** The tenant of an account's owner: a workspace id, null for the base data, undefined for system accounts. */
  function workspaceOfOwner(ownerType: string, ownerId: string): string | null | undefined {
    if (ownerType === 'user') return (userById.get(ownerId) as UserRow | undefined)?.workspace_id;
    if (ownerType === 'merchant')
      return (merchantById.get(ownerId) as MerchantRow | undefined)?.workspace_id;
    return undefined;
  }

  return {
    forgetCached,
    /** OAuth2 access tokens of the apps (the Bearer alternative to HMAC on the developer API). */
    appTokens: createAppTokenRepository(db),
    merchantByToken: (token: string) =>
      merchantsByToken.get(token) ??
      remember(
        merchantsByToken,
        token,
        merchantByToken.get(token, token) as MerchantRow | undefined,
      ),
    merchantById: (id: string) =>
      merchantsById.get(id) ??
      remember(merchantsById, id, merchantById.get(id) as MerchantRow | undefined),
    firstMerchant: () => firstMerchant.get() as MerchantRow | undefined,
    /** Enabled merchants in creation order; of one workspace when `workspaceId` is given. */
    merchantsPage: (limit: number, offset: number, workspaceId?: string) =>
      (workspaceId === undefined
        ? merchantsPage.all(limit, offset)
        : merchantsOfPage.all(workspaceId, limit, offset)) as MerchantRow[],
    merchantsCount: (workspaceId?: string) =>
      (
        (workspaceId === undefined ? merchantsCount.get() : merchantsOfCount.get(workspaceId)) as {
          n: number;
        }
      ).n,
    insertMerchant: (m: Omit<MerchantRow, 'disabled'>) => {
      forgetCached();
      insertMerchant.run(m);
    },
    /** Change a merchant's settings; identity columns (id, tokens, wallet) are never updatable. */
    updateMerchant(id: string, fields: Partial<Pick<MerchantRow, MerchantSetting>>): void {
      const keys = Object.keys(fields) as MerchantSetting[];
      const unknown = keys.filter((k) => !MERCHANT_SETTINGS.includes(k));
      if (unknown.length) throw new Error(`not merchant settings: ${unknown.join(', ')}`);
      forgetCached();
      // Column names come from the fixed list above, never from input; values are bound parameters.
      if (keys.length)
        db.prepare(
          `UPDATE merchants SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`,
        ).run({ ...fields, id });
    },
    appByKey: (key: string) => appByKey.get(key) as AppRow | undefined,
    /**
     * The app of an access key, for signature checks: from the cache, so its `last_nonce` may be older
     * than the database's (the nonce is checked by `advanceNonce`; read `appByKey` for the current one).
     */
    appForAuth: (key: string) =>
      appsByKey.get(key) ?? remember(appsByKey, key, appByKey.get(key) as AppRow | undefined),
    appsPage: (limit: number, offset: number, workspaceId?: string) =>
      (workspaceId === undefined
        ? appsPage.all(limit, offset)
        : appsOfPage.all(workspaceId, limit, offset)) as AppRow[],
    appsCount: (workspaceId?: string) =>
      (
        (workspaceId === undefined ? appsCount.get() : appsOfCount.get(workspaceId)) as {
          n: number;
        }
      ).n,
    insertApp: (a: NewApp) => {
      forgetCached();
      insertApp.run({
        ...a,
        business_account: a.business_account ?? 1,
        daily_buy_limit: a.daily_buy_limit ?? null,
      });
    },
    /** True when the nonce was strictly greater than the last one and is now recorded. */
    advanceNonce: (key: string, nonce: string) =>
      inBatch(() => {
        const moved = advanceNonce.run({ key, nonce }).changes;
        nonceWrites += moved;
        return moved === 1;
      }),
    nonceWrites: () => nonceWrites,
    resetNonce: (key: string) => resetNonce.run(key).changes === 1,
    userById: (id: string) => userById.get(id) as UserRow | undefined,
    /**
     * A customer by email, mobile number or id, within one tenant (`null`: the base data): a login of
     * another workspace is as unknown as one that does not exist.
     */
    customerByLogin: (login: string, workspaceId: string | null) =>
      userByLogin.get({ login, workspace: workspaceId }) as UserRow | undefined,
    /**
     * The wallet user a send names (`target_address`): a customer or a developer (an application's
     * owner), by email, mobile number or id, within one tenant, as the real service finds any wallet user.
     */
    walletUserByAddress: (login: string, workspaceId: string | null) =>
      walletUserByAddress.get({ login, workspace: workspaceId }) as UserRow | undefined,
    /** The oldest customer of a tenant (`null`: the base data). */
    firstCustomer(workspaceId: string | null = null): UserRow | undefined {
      if (firstCustomers.has(workspaceId)) return firstCustomers.get(workspaceId);
      const row = firstCustomer.get(workspaceId) as UserRow | undefined;
      if (firstCustomers.size >= CACHE_LIMIT) firstCustomers.clear();
      firstCustomers.set(workspaceId, row);
      return row;
    },
    workspaceOfOwner,
    ownerWorkspaceEnded(ownerType: string, ownerId: string): boolean {
      const ws = workspaceOfOwner(ownerType, ownerId);
      return typeof ws === 'string' && workspaceEnded.get({ ws }) !== undefined;
    },
    customersPage: (limit: number, offset: number, workspaceId?: string) =>
      (workspaceId === undefined
        ? customersPage.all(limit, offset)
        : customersOfPage.all(workspaceId, limit, offset)) as UserRow[],
    customersCount: (workspaceId?: string) =>
      (
        (workspaceId === undefined ? customersCount.get() : customersOfCount.get(workspaceId)) as {
          n: number;
        }
      ).n,
    emailTaken: (email) => emailTaken.get(email) !== undefined,
    mobileTaken: (mobile) => mobileTaken.get(mobile) !== undefined,
    merchantOfWorkspace: (workspaceId) =>
      merchantOfWorkspace.get(workspaceId) as MerchantRow | undefined,
    insertUser: (u: UserRow) => {
      firstCustomers.clear();
      insertUser.run(u);
    },
    disableWorkspace(workspaceId: string): void {
      forgetCached();
      disableMerchants.run(workspaceId);
      disableApps.run(workspaceId);
      for (const listener of workspaceListeners) listener(workspaceId);
    },
    /** Call `listener` when a workspace is disabled (deleted or expired): what a module keeps of its tenant ends. */
    onWorkspaceDisabled: (listener: (workspaceId: string) => void) =>
      void workspaceListeners.push(listener),
  };
}
