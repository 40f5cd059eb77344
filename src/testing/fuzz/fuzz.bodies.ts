import fc from 'fast-check';
import type { Operation } from '../../spec/load.js';
import type { PoolName } from './fuzz.pools.js';
import type { FuzzWorld } from './fuzz.world.js';
import { validAmount, type Resolve } from './schema.arbitrary.js';

/** Values a valid request is made of where the schema alone is too loose: existing ids, meaningful bodies. */

export type Fields = Record<string, fc.Arbitrary<unknown>>;

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

const unique = fc
  .tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 12 }))
  .map(([n, s]) => `fuzz-${n}-${s}`);
const localUrl = fc.nat(9999).map((n) => `http://127.0.0.1:9/fuzz/${n}`);

/**
 * Field values that make a request meaningful for the sandbox (real outlets, own account, known
 * invoices) where the schema alone is too loose; every value stays valid for the document.
 */
export function bodyOverrides(op: Operation, world: FuzzWorld, resolve: Resolve): Fields {
  // A customer by login or by peso wallet (a wallet in another currency is a 400 by design).
  // Only emails the run knows: a made-up one is a 400, and the invalid requests already send those.
  const emails = world.pool('email');
  const target = emails.length
    ? fc.oneof(fc.constantFrom(...emails), fc.constantFrom(...world.customerPesoAccounts))
    : fc.constantFrom(...world.customerPesoAccounts);
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
        currency: fc.constant('PHP'),
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
        // The methods a fault takes (checked by the faults service, which lists them in its 400).
        method: fc.option(fc.constantFrom('*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'), {
          nil: undefined,
        }),
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
