import fc from 'fast-check';
import type { oas31 } from 'openapi3-ts';
import type { Operation } from '../../spec/load.js';
import type { Draft } from './fuzz.request.js';
import type { PoolName } from './fuzz.pools.js';
import type { FuzzWorld } from './fuzz.world.js';
import { bodyOverrides, existing } from './fuzz.bodies.js';
import { fitDraft, fitQuery, ownAccountsOf, withoutUndefined } from './fuzz.fit.js';
import { arbitraryFor, type Resolve, type Schema } from './schema.arbitrary.js';

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
