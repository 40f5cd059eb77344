import fc from 'fast-check';
import type { oas31 } from 'openapi3-ts';
import type { Operation } from '../../spec/load.js';
import type { Draft } from './fuzz.request.js';
import type { FuzzWorld, PoolName } from './fuzz.world.js';
import { fitDraft, fitQuery, ownAccountsOf, withoutUndefined } from './fuzz.fit.js';
import { arbitraryFor, validAmount, type Resolve, type Schema } from './schema.arbitrary.js';

type Fields = Record<string, fc.Arbitrary<unknown>>;

/**
 * A value from a pool of existing ids, or (rarely, or when the pool is empty) a well-formed id that does
 * not exist. Ids that may still move are favoured (fixture orders in flight, what the run created
 * last: a pending transfer or conversion, an unpaid order), where most fixture history has long settled.
 */
export function existing(
  world: FuzzWorld,
  pool: PoolName,
  movableFirst = false,
): fc.Arbitrary<string> {
  const fresh = fc.stringMatching(/^[0-9a-f]{32}$/);
  const values = world.pool(pool);
  if (!values.length) return fresh;
  const movable = world.movable(pool).slice(-3);
  return fc.oneof(
    ...(movable.length
      ? [{ weight: movableFirst ? 20 : 4, arbitrary: fc.constantFrom(...movable) }]
      : []),
    { weight: movable.length && movableFirst ? 1 : 5, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fresh },
  );
}

/**
 * Operations whose success path needs an item that can still move (a pending invoice, transfer or
 * order, a live reference number): they take one of those first, where one exists, and settled
 * history only sometimes (where it answers 409).
 */
const MOVABLE_FIRST = new Set([
  'payInvoice',
  'confirmCounterPayment',
  'expireInvoice',
  'cancelInvoice',
  'setTransferStatus',
  'setCryptoExchangeStatus',
  'setCryptoPaymentStatus',
  'setPaymentRequestStatus',
  'cancelPaymentRequest',
  'setSellOrderStatus',
  'setBuyOrderStatus',
  'markBuyOrderPaid',
  'markBuyOrderPaidV2',
  'cancelBuyOrder',
  'cancelBuyOrderV2',
]);

const PATH_POOLS: Record<string, PoolName> = {
  invoice_id: 'invoice',
  transfer_id: 'transfer',
  account_id: 'account',
  delivery_id: 'delivery',
  api_key: 'apiKey',
  merchant_id: 'merchant',
  workspace_id: 'workspace',
  payment_request_id: 'paymentRequest',
  crypto_exchange_id: 'cryptoExchange',
  crypto_payment_id: 'cryptoPayment',
  crypto_route_id: 'cryptoRoute',
  fault_id: 'fault',
  access_token: 'accessToken',
  snapshot_id: 'snapshot',
};

function pathPool(op: Operation, name: string): PoolName {
  if (name === 'order_id') return /buyorder/i.test(op.operationId) ? 'buyOrder' : 'sellOrder';
  if (name === 'id' && op.operationId === 'getPayoutOutlet') return 'outlet';
  if (name === 'symbol') return 'market';
  return PATH_POOLS[name] ?? 'invoice';
}

const unique = fc
  .tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 12 }))
  .map(([n, s]) => `fuzz-${n}-${s}`);
const localUrl = fc.nat(9999).map((n) => `http://127.0.0.1:9/fuzz/${n}`);

/**
 * Field values that make a request meaningful for the sandbox (real outlets, own account, known
 * invoices) where the schema alone is too loose; every value stays valid for the document.
 */
function bodyOverrides(op: Operation, world: FuzzWorld, resolve: Resolve): Fields {
  // A customer by login or by peso wallet (a wallet in another currency is a 400 by design).
  const target = fc.oneof(existing(world, 'email'), fc.constantFrom(...world.customerPesoAccounts));
  switch (op.operationId) {
    case 'createInvoiceV1':
    case 'createInvoiceV3':
      return {
        amount: validAmount(5000),
        currency: fc.constant('PHP'),
        external_transaction_id: unique,
        expires_at: fc.constant(undefined),
      };
    case 'createSellOrder':
    case 'createSellOrderV2':
      return {
        outlet_id: fc.constantFrom(...world.outlets),
        payment_outlet: fc.constant(undefined),
        amount: validAmount(2000),
        // The example scripts' alias of `amount`: both at once is a 400 by design.
        btc_amount: fc.constant(undefined),
        // A load order's amount, also an alias of `amount` (both at once is a 400 by design).
        currency_amount_locked: fc.constant(undefined),
        phone_number_load: fc.constant(undefined),
        currency: fc.constant('PHP'),
        pay_with_wallet: fc.constantFrom(undefined, 'PHP'),
        otp: fc.constant(undefined),
        external_transaction_id: fc.option(unique, { nil: undefined }),
      };
    case 'createTransfer':
    case 'createCryptoPayment':
      return {
        account: fc.constant(world.ownAccount),
        target_address: target,
        amount: validAmount(200),
        otp: fc.constant(undefined),
      };
    case 'placeBuyOrder':
      return {
        currency_amount: validAmount(5000),
        amount: fc.constant(undefined),
        btc_amount: fc.constant(undefined),
        // Into the BTC wallet: a daily cash-in limit, where an app has one, counts peso orders only.
        currency: fc.constant('BTC'),
        payment_method: fc.constantFrom('cash_payment', 'seven_connect_deposit', 'bayad_deposit'),
      };
    case 'createCryptoExchange':
      return {
        source_account: fc.constant(world.ownAccount),
        target_account: fc.constant(world.ownBtcAccount),
        amount: validAmount(500),
        // The documented names of the amount: another amount beside `amount` is a 400 by design.
        source_amount: fc.constant(undefined),
        target_amount: fc.constant(undefined),
      };
    case 'createPaymentRequest':
      // A payer who exists (an unknown one is a 400 by design; the invalid generator covers it).
      // `expires_at` must be a date in the future (any other text is a 400 by design).
      return {
        payer_contact_info: fc.constantFrom(...world.pool('email')),
        receiving_account: fc.constant(world.ownAccount),
        amount: validAmount(100),
        expires_at: fc.constant(undefined),
      };
    case 'validateOutletField':
      return {
        payment_outlet: fc.constant('bpi'),
        outlet_id: fc.constant(undefined),
        field: fc.constant('account_number'),
        value: fc.constantFrom('1234567890', '001234567890'),
      };
    case 'quotePartnerPayoutOutletFee':
      return { outlet_id: fc.constantFrom(...world.outlets), amount: validAmount(60000) };
    case 'payInvoice':
      return {
        collector: fc.constantFrom(
          ...(resolve('#/components/schemas/PaymentCollector').enum as string[]),
        ),
        amount: fc.option(validAmount(50), { nil: undefined }),
        customer: fc.option(existing(world, 'email'), { nil: undefined }),
      };
    case 'confirmCounterPayment':
      return {
        reference_number: world.pool('reference').length
          ? existing(world, 'reference', true)
          : fc.string({ minLength: 1, maxLength: 12 }),
        amount: fc.option(validAmount(50), { nil: undefined }),
      };
    case 'triggerEvent':
      // Half the time on a new invoice of its own: one more pending invoice for the rest of the round.
      return { invoice_id: fc.option(existing(world, 'invoice'), { nil: undefined, freq: 1 }) };
    case 'createBuyOrder':
      return {
        api_key: existing(world, 'apiKey'),
        amount: validAmount(5000),
        currency: fc.constant('PHP'),
        payment_method: fc.constantFrom(undefined, 'cash_payment', 'seven_connect_deposit'),
      };
    case 'fundAccount':
      return { amount: validAmount(10000) };
    case 'createApp':
    case 'createCustomer':
      return { balance: fc.option(validAmount(10000), { nil: undefined }) };
    case 'createMerchant':
    case 'updateMerchant':
      return {
        callback_url: fc.option(localUrl),
        redirect_url: fc.option(localUrl),
        max_invoice_amount: fc.option(validAmount(100000), { nil: undefined }),
      };
    case 'createFault':
      // Never fires (the glob is still matched against every later request, which is what can hang).
      return {
        probability: fc.constant(0),
        latency_ms: fc.constant(undefined),
        // 200-599: a 1xx cannot end a response (the document's minimum).
        status: fc.option(fc.integer({ min: 200, max: 599 }), { nil: undefined }),
        path: fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom('/v1/invoices', '/v3/**', '/*/sellorder', '**') },
          // Globs that make a backtracking matcher explode on a long path, with as many wildcards as
          // the sandbox takes (16: more is a 400, which would leave no fault to match or delete).
          {
            weight: 3,
            arbitrary: fc.constantFrom(
              '**/' + '*a'.repeat(15) + 'b',
              '/*/*/' + '*a'.repeat(13) + '*c',
              '/**/' + 'a*'.repeat(15) + 'z',
            ),
          },
          // Any text as the last segment under a served path (a glob that matches no served path is a 400).
          {
            weight: 1,
            arbitrary: fc
              .string({ minLength: 1, maxLength: 60 })
              .map((s) => `/v1/invoices/${s.replace(/\//g, '')}`),
          },
        ),
      };
    case 'advanceClock':
      return { seconds: fc.integer({ min: 1, max: 3600 }) };
    default:
      return {};
  }
}

/** Query values that exist and keep answers small; the rest come from the parameter's schema. */
function queryValue(
  p: oas31.ParameterObject,
  world: FuzzWorld,
  resolve: Resolve,
): fc.Arbitrary<string> {
  switch (p.name) {
    case 'page':
      // Mostly the first page: what a list answers fills the pools for the reads by id.
      return fc.oneof(
        { weight: 2, arbitrary: fc.constant('1') },
        { weight: 1, arbitrary: fc.integer({ min: 2, max: 4 }).map(String) },
      );
    case 'per_page':
    case 'limit':
      return fc.integer({ min: 1, max: 50 }).map(String);
    case 'offset':
      return fc.integer({ min: 0, max: 300 }).map(String);
    case 'wait':
      // A long poll holds the answer for real seconds: rarely, and short.
      return fc.oneof(
        { weight: 9, arbitrary: fc.constant('0') },
        { weight: 1, arbitrary: fc.constant('1') },
      );
    case 'currency':
      return fc.constantFrom('PHP', 'BTC');
    case 'outlet_id':
    case 'payment_outlet':
      return fc.constantFrom(...world.outlets);
    case 'amount':
    case 'btc_amount':
      return fc.integer({ min: 1, max: 900 }).map(String);
    case 'invoice_id':
      return existing(world, 'invoice');
    case 'merchant_id':
      return existing(world, 'merchant');
    case 'workspace_id':
      return existing(world, 'workspace');
    case 'events':
      // A comma-separated list of event names (the event stream's filter).
      return fc
        .uniqueArray(
          fc.constantFrom(...(resolve('#/components/schemas/EventName').enum as string[])),
          { minLength: 1 },
        )
        .map((names) => names.join(','));
    default:
      return arbitraryFor((p.schema ?? {}) as Schema, resolve).map((v) =>
        typeof v === 'string' ? v : JSON.stringify(v),
      );
  }
}

/** A request the document says is valid, with real ids and good credentials. */
export function validDraft(
  op: Operation,
  world: FuzzWorld,
  resolve: Resolve,
  bodySchema: Schema | undefined,
): fc.Arbitrary<Draft> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const movableFirst = MOVABLE_FIRST.has(op.operationId);
  const params = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [p.name, existing(world, pathPool(op, p.name), movableFirst)]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  const query = fc
    .tuple(
      ...queryParams.map((p) => {
        const pair = queryValue(p, world, resolve).map((v) => [p.name, v] as [string, string]);
        // A required parameter is always there (without it the request is not valid).
        return p.required ? pair : fc.option(pair, { nil: undefined });
      }),
    )
    .map((pairs) => pairs.filter((x): x is [string, string] => x !== undefined));
  let body: fc.Arbitrary<unknown> = fc.constant(undefined);
  if (bodySchema) {
    const overrides = bodyOverrides(op, world, resolve);
    const merged = fc
      .tuple(arbitraryFor(bodySchema, resolve), fc.record(overrides))
      .map(([b, o]) =>
        withoutUndefined(
          b && typeof b === 'object' && !Array.isArray(b) ? { ...(b as object), ...o } : b,
        ),
      );
    body = op.bodyRequired ? merged : fc.option(merged, { nil: undefined, freq: 4 });
  }
  // Mostly the whitelisted app; sometimes the one that needs a one-time code (422 is documented).
  const app = fc.oneof(
    { weight: 5, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.nat(world.apps.length * 3) },
  );
  // The event stream answers only a client that asks for one (406 otherwise).
  const headers: Record<string, string> =
    op.operationId === 'streamEvents' ? { accept: 'text/event-stream' } : {};
  return fc.record({ pathParams: params, query, body, app }).map((r): Draft => {
    const fit = fitDraft(
      op,
      world,
      r.pathParams,
      op.auth === 'hmac' ? ownAccountsOf(world, r.app, r.body) : r.body,
    );
    return {
      op,
      kind: 'valid',
      pathParams: fit.pathParams,
      query: fitQuery(op, world, fit.pathParams, r.query),
      body: fit.body,
      headers,
      auth: 'good',
      app: r.app,
      expect: 'documented',
    };
  });
}
