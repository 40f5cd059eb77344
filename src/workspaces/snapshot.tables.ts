import { table, type TableSpec } from './snapshot.columns.js';

/**
 * The tables that hold a workspace's state, with the spec of each column (snapshot.columns.ts)
 * (docs/design.md#saved-states). Capture, the document's checks and restore are all driven by this
 * one list, so a new tenant table or column is one entry here (and its schema in openapi.yaml, which a
 * test compares with this list).
 */
const WS_USERS = 'SELECT id FROM users WHERE workspace_id = @ws';
const WS_MERCHANTS = 'SELECT id FROM merchants WHERE workspace_id = @ws';
const WS_ACCOUNTS = `SELECT id FROM accounts WHERE (owner_type = 'user' AND owner_id IN (${WS_USERS}))
  OR (owner_type = 'merchant' AND owner_id IN (${WS_MERCHANTS}))`;
const WS_TRANSACTIONS = `SELECT transaction_id FROM ledger_entries WHERE account_id IN (${WS_ACCOUNTS})`;

/**
 * Columns added after version 1 of the document was published: optional in a document (one saved before
 * has none), restored with these values (in the document's form) when absent.
 */
export const ADDED_COLUMNS: Readonly<
  Record<string, Readonly<Record<string, string | number | null>>>
> = {
  apps: { business_account: 1, daily_buy_limit: null },
};

/** Tables added after version 1 was first published: a document saved before has none (restored empty). */
export const ADDED_TABLES: ReadonlySet<string> = new Set(['crypto_routes']);

const owned = { owner_id: 'ref users' };

/** In restore order: a row's references are restored before it. */
export const SNAPSHOT_TABLES: readonly TableSpec[] = [
  table('users', 'workspace_id = @ws', {
    id: 'id',
    kind: 'text',
    name: 'text',
    email: 'email?',
    mobile_number: 'mobile?',
    password: 'text?',
    workspace_id: 'ws',
    created_at: 'time',
  }),
  table('accounts', `id IN (${WS_ACCOUNTS})`, {
    id: 'id',
    owner_type: 'text',
    owner_id: 'ref users merchants',
    name: 'text',
    currency: 'text',
    balance: 'money',
    pending_balance: 'money',
    total_received: 'money',
    default_address: 'mapped',
    allow_negative: 'int',
    created_at: 'time',
  }),
  table('merchants', 'workspace_id = @ws', {
    id: 'id',
    name: 'text',
    merchant_api_token: 'secret',
    bearer_token: 'secret?',
    callback_url: 'url?',
    redirect_url: 'url?',
    enabled_payment_collectors: 'text',
    max_invoice_amount: 'money',
    invoice_lifetime_seconds: 'int',
    callback_auth: 'text',
    wallet_account_id: 'ref accounts',
    workspace_id: 'ws',
    disabled: 'int',
    created_at: 'time',
  }),
  table('apps', 'workspace_id = @ws', {
    api_key: 'secret',
    api_secret: 'secret',
    name: 'text',
    owner_id: 'ref users',
    mfa_whitelisted: 'int',
    otp_secret: 'text',
    last_nonce: 'text?',
    workspace_id: 'ws',
    disabled: 'int',
    created_at: 'time',
    business_account: 'int',
    daily_buy_limit: 'money?',
  }),
  table('app_access_tokens', 'api_key IN (SELECT api_key FROM apps WHERE workspace_id = @ws)', {
    access_token: 'secret',
    api_key: 'ref apps',
    scope: 'text',
    created_at: 'time',
    expires_at: 'time',
    revoked_at: 'time?',
    expired_at: 'time?',
  }),
  table('ledger_transactions', `id IN (${WS_TRANSACTIONS})`, {
    id: 'id',
    kind: 'text',
    reference: 'mapped?',
    created_at: 'time',
  }),
  table(
    'ledger_entries',
    `transaction_id IN (${WS_TRANSACTIONS})`,
    {
      transaction_id: 'ref ledger_transactions',
      account_id: 'ref accounts *',
      amount: 'money',
      created_at: 'time',
    },
    'id',
  ),
  table('invoices', `merchant_id IN (${WS_MERCHANTS})`, {
    id: 'id',
    merchant_id: 'ref merchants',
    status: 'text',
    amount: 'money',
    amount_received: 'money',
    currency: 'text',
    external_transaction_id: 'text',
    description: 'text',
    metadata: 'mapped',
    supported_payment_collectors: 'text',
    current_payment_reference_number: 'reference?',
    current_payment_collector: 'text?',
    created_at: 'time',
    updated_at: 'time',
    expires_at: 'time',
  }),
  table(
    'payments',
    `invoice_id IN (SELECT id FROM invoices WHERE merchant_id IN (${WS_MERCHANTS}))`,
    {
      id: 'id',
      invoice_id: 'ref invoices',
      amount: 'money',
      payment_collector: 'text',
      reference_number: 'mapped?',
      payer_account_id: 'ref? accounts *',
      ledger_transaction_id: 'ref? ledger_transactions',
      created_at: 'time',
    },
  ),
  table(
    'outbox_events',
    `merchant_id IN (${WS_MERCHANTS})`,
    {
      id: 'id',
      name: 'text',
      invoice_id: 'ref invoices',
      merchant_id: 'ref merchants',
      payload: 'mapped',
      created_at: 'time',
    },
    'seq',
  ),
  table(
    'deliveries',
    `merchant_id IN (${WS_MERCHANTS})`,
    {
      id: 'id',
      event_id: 'mapped',
      event: 'text',
      invoice_id: 'ref invoices',
      merchant_id: 'ref merchants',
      url: 'text?',
      body: 'mapped',
      ordered: 'int',
      redelivery_of: 'mapped?',
      status: 'text',
      attempts_count: 'int',
      next_attempt_at: 'time?',
      last_error: 'text?',
      created_at: 'time',
      updated_at: 'time',
      delivered_at: 'time?',
    },
    'seq',
  ),
  table(
    'delivery_attempts',
    `delivery_id IN (SELECT id FROM deliveries WHERE merchant_id IN (${WS_MERCHANTS}))`,
    {
      delivery_id: 'ref deliveries',
      attempt: 'int',
      started_at: 'time',
      url: 'text',
      request_headers: 'mapped',
      request_body: 'mapped',
      status_code: 'int?',
      error: 'text?',
      response_excerpt: 'text?',
      duration_ms: 'real',
    },
    'delivery_id, attempt',
  ),
  table('sell_orders', `owner_id IN (${WS_USERS})`, {
    id: 'id',
    ...owned,
    account_id: 'ref accounts',
    outlet_id: 'ref outlets *',
    amount: 'money',
    fee: 'money',
    currency: 'text',
    delivery_status: 'text',
    external_transaction_id: 'text?',
    target_address: 'mapped?',
    target_account_id: 'ref? accounts *',
    fields: 'mapped',
    debit_transaction_id: 'ref? ledger_transactions',
    auto_advance: 'int',
    created_at: 'time',
    status_changed_at: 'time',
  }),
  table('buy_orders', `owner_id IN (${WS_USERS})`, {
    id: 'id',
    ...owned,
    account_id: 'ref? accounts',
    amount: 'money',
    currency: 'text',
    payment_method: 'text',
    status: 'text',
    instructions: 'mapped?',
    auto_release: 'int',
    credit_transaction_id: 'ref? ledger_transactions',
    created_at: 'time',
    expires_at: 'time',
    marked_paid_at: 'time?',
    canceled_at: 'time?',
    status_changed_at: 'time?',
  }),
  table('transfers', `owner_id IN (${WS_USERS})`, {
    id: 'id',
    ...owned,
    account_id: 'ref accounts',
    target_account_id: 'ref? accounts *',
    target_address: 'mapped',
    amount: 'money',
    currency: 'text',
    status: 'text',
    ledger_transaction_id: 'ref? ledger_transactions',
    created_at: 'time',
  }),
  table('crypto_exchanges', `owner_id IN (${WS_USERS})`, {
    id: 'id',
    ...owned,
    source_account_id: 'ref accounts',
    target_account_id: 'ref accounts',
    rate: 'text',
    source_amount: 'money',
    target_amount: 'money',
    source_currency: 'text',
    target_currency: 'text',
    owner_payment: 'mapped',
    trader_payment: 'mapped',
    status: 'text',
    created_at: 'time',
  }),
  table('crypto_payments', `owner_id IN (${WS_USERS})`, {
    id: 'id',
    ...owned,
    account_id: 'ref accounts',
    target_account_id: 'mapped',
    target_address: 'mapped',
    amount: 'money',
    currency: 'text',
    message: 'text',
    status: 'text',
    created_at: 'time',
  }),
  table('payment_requests', `owner_id IN (${WS_USERS})`, {
    id: 'id',
    ...owned,
    receiving_account_id: 'ref accounts',
    payer_id: 'mapped',
    payer_contact_info: 'mapped',
    amount: 'money',
    currency: 'text',
    message: 'text',
    status: 'text',
    ledger_transaction_id: 'mapped?',
    created_at: 'time',
    expires_at: 'time',
    updated_at: 'time',
  }),
  table('crypto_routes', `owner_id IN (${WS_USERS})`, {
    id: 'id',
    ...owned,
    monitored_address: 'mapped',
    stock_address: 'mapped',
    created_at: 'time',
  }),
];

export const SNAPSHOT_FORMAT = 'paysandbox.snapshot';
export const SNAPSHOT_VERSION = 1;
