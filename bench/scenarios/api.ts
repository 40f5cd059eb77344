import { json } from '../lib/net.js';
import {
  get,
  invoiceCreate,
  pay,
  signed,
  type LoadScenario,
  type ScenarioContext,
} from './api-requests.js';

export type { LoadScenario, ScenarioContext } from './api-requests.js';

/** The bare Hono app: the yardstick of every ratio. */
export function baselineScenario(baseUrl: string, connections: number): LoadScenario {
  return {
    id: 'baseline',
    title: 'bare Hono GET (baseline)',
    connections,
    requests: [{ method: 'GET', path: '/healthz' }],
    preflight: () => json('GET', `${baseUrl}/healthz`),
  };
}

/**
 * The floor (bench/floor-server.mjs): the create's request against a bare Hono app that only reads the
 * body and answers (`floor-post`), and one that also runs the sandbox's own storage of a create
 * (`floor-create`); the signed GET's least work (`floor-signed-get`: the signature, the durable nonce,
 * the accounts read). What the API around them adds is the sandbox's row minus these.
 */
export function floorScenarios(
  c: Pick<
    ScenarioContext,
    'baseUrl' | 'connections' | 'merchantToken' | 'runId' | 'keys' | 'quietInvoiceIds'
  >,
): LoadScenario[] {
  return [
    invoiceCreate(c, 'floor-post', 'floor: bare Hono POST, JSON in and out', '/echo'),
    invoiceCreate(c, 'floor-create', "floor: bare Hono POST + the create's storage"),
    // The same invoices as the sandbox's `payment` scenario, in the floor's own copy of the database.
    pay(
      c,
      'floor-payment',
      "floor: bare Hono POST + a wallet payment's storage",
      c.quietInvoiceIds,
    ),
    signed(
      c,
      'floor-signed-get',
      'floor: bare Hono GET + HMAC, nonce, accounts',
      'GET',
      '/v3/crypto-accounts/',
      () => '',
    ),
  ];
}

/** Every load scenario against the sandbox, in the order they run (reads before the writes that change them). */
export function sandboxScenarios(
  c: ScenarioContext,
  opts: { deepPage: number; deepRate: number },
): LoadScenario[] {
  const deepPath = `/v3/invoices/?page=${opts.deepPage}&per_page=10`;
  const deepCheck = (body: unknown): string | null => {
    const b = body as { invoices?: unknown[]; meta?: { total_count?: number } };
    if (b.invoices?.length !== 10)
      return `the deep page has ${b.invoices?.length ?? 0} invoices, not 10`;
    if ((b.meta?.total_count ?? 0) < opts.deepPage * 10)
      return `only ${b.meta?.total_count} invoices: page ${opts.deepPage} is not deep`;
    return null;
  };
  // GET one invoice: the newest thousand seeded invoices in turn (the payments scenario pays the oldest).
  const recent = c.invoiceIds.slice(-1000);
  let g = 0;
  const getOne = get(c, 'invoice-get', 'GET /v1/invoices/{id}', `/v1/invoices/${recent[0]}`, {
    requests: [
      {
        method: 'GET',
        headers: { authorization: `Token ${c.merchantToken}` },
        setupRequest: (req) => ({ ...req, path: `/v1/invoices/${recent[g++ % recent.length]}` }),
      },
    ],
  });
  return [
    get(c, 'healthz', 'GET /healthz', '/healthz'),
    get(c, 'list-page-1', 'GET /v3/invoices/ page 1 (of 100k)', '/v3/invoices/?page=1&per_page=10'),
    get(c, 'list-deep', `GET /v3/invoices/ page ${opts.deepPage} (saturated)`, deepPath, {
      check: deepCheck,
    }),
    get(
      c,
      'list-deep-fixed',
      `GET /v3/invoices/ page ${opts.deepPage} at ${opts.deepRate} req/s`,
      deepPath,
      {
        check: deepCheck,
        overallRate: opts.deepRate,
        connections: 2,
      },
    ),
    getOne,
    signed(
      c,
      'hmac-get',
      'GET /v3/crypto-accounts/ (HMAC)',
      'GET',
      '/v3/crypto-accounts/',
      () => '',
    ),
    invoiceCreate(
      { ...c, merchantToken: c.quietMerchantToken },
      'invoice-create',
      'POST /v1/invoices/ (Token; merchant without callback URL)',
    ),
    invoiceCreate(
      c,
      'invoice-create-callbacks',
      'POST /v1/invoices/ (Token; callback sent to a live receiver)',
    ),
    signed(c, 'sellorder', 'POST /v1/sellorder (HMAC)', 'POST', '/v1/sellorder', () =>
      JSON.stringify({ outlet_id: 'bpi', amount: '100', currency: 'PHP' }),
    ),
    pay(
      c,
      'payment',
      'POST /_sandbox/invoices/{id}/payments (wallet; merchant without callback URL)',
      c.quietInvoiceIds,
    ),
    pay(
      c,
      'payment-callbacks',
      'POST /_sandbox/invoices/{id}/payments (wallet; callbacks sent to a live receiver)',
      c.invoiceIds,
    ),
  ];
}

/** The operations a user could also point at Prism: same requests, same Token. */
export function peerScenarios(c: {
  baseUrl: string;
  connections: number;
  merchantToken: string;
  runId: string;
}): LoadScenario[] {
  const headers = { authorization: `Token ${c.merchantToken}` };
  return [
    invoiceCreate(c, 'peer-invoice-create'),
    {
      id: 'peer-list-page-1',
      title: 'GET /v3/invoices/ page 1',
      connections: c.connections,
      requests: [{ method: 'GET', path: '/v3/invoices/?page=1&per_page=10', headers }],
      preflight: () =>
        json('GET', `${c.baseUrl}/v3/invoices/?page=1&per_page=10`, undefined, headers),
    },
  ];
}
