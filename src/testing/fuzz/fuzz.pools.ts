/** The fuzzer's pools of existing resources: their names, which have a lifecycle, and which key of an answer fills which. */

/** Kinds of existing resources a request can point at; filled from the fixtures and from answers. */
export type PoolName =
  | 'invoice'
  | 'sellOrder'
  | 'buyOrder'
  | 'transfer'
  | 'account'
  | 'delivery'
  | 'apiKey'
  | 'merchant'
  | 'workspace'
  | 'reference'
  | 'email'
  | 'outlet'
  | 'market'
  | 'paymentRequest'
  | 'cryptoExchange'
  | 'cryptoPayment'
  | 'cryptoRoute'
  | 'fault'
  | 'accessToken'
  | 'snapshot';

export const POOL_CAP = 200;

/** Pools of resources with a lifecycle: a new one can still move, where history has settled. */
export const STATEFUL = new Set<PoolName>([
  'invoice',
  'sellOrder',
  'buyOrder',
  'transfer',
  'paymentRequest',
  'cryptoExchange',
  'cryptoPayment',
]);

/** Pools whose objects say in `status` whether they can still move: only a `pending` one can. */
export const SETTLES_BY_STATUS = new Set<PoolName>([
  'invoice',
  'transfer',
  'paymentRequest',
  'cryptoExchange',
  'cryptoPayment',
]);

/** A pending transfer settles by itself this long after it was made (the server's default `--transfer-delay`). */
export const TRANSFER_DELAY_MS = 10_000;

/** The key under which an answer holds an object (`invoice`, `orders` …) → the pool its id goes to. */
const POOL_OF_KEY: Record<string, PoolName> = {
  invoice: 'invoice',
  invoices: 'invoice',
  transfer: 'transfer',
  transfers: 'transfer',
  'payment-request': 'paymentRequest',
  'payment-requests': 'paymentRequest',
  'crypto-exchange': 'cryptoExchange',
  'crypto-exchanges': 'cryptoExchange',
  'crypto-payment': 'cryptoPayment',
  'crypto-payments': 'cryptoPayment',
  fault: 'fault',
  faults: 'fault',
  delivery: 'delivery',
  deliveries: 'delivery',
  workspace: 'workspace',
  accounts: 'account',
  account: 'account',
  merchant: 'merchant',
  merchants: 'merchant',
};

/** The pool of an object with an id found under `key` of an answer of `operationId`, if any. */
export function poolOfKey(key: string, operationId: string): PoolName | undefined {
  if (key === 'order' || key === 'orders')
    return operationId.includes('Buy') ? 'buyOrder' : 'sellOrder';
  return Object.hasOwn(POOL_OF_KEY, key) ? POOL_OF_KEY[key] : undefined;
}
