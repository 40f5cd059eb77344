import type { RequestSpec } from 'autocannon';
import { signedHeaders, type SigningKey } from '../lib/hmac.js';
import type { Client } from '../lib/load.js';
import { json } from '../lib/net.js';
import { itemAt } from '../../src/shared/defined.js';

/** One load scenario: what autocannon sends, and one request beforehand to see that the route works. */
export interface LoadScenario {
  id: string;
  title: string;
  connections: number;
  /** Fixed request rate (req/s over all connections); saturated when absent. */
  overallRate?: number;
  requests: RequestSpec[];
  setupClient?: (client: Client) => void;
  /** A single request outside the load: a 501 marks the scenario "not available"; any other non-2xx is a bench error. */
  preflight(): Promise<{ status: number; body: unknown }>;
  /** Extra check of the preflight answer (e.g. the deep page really is deep). */
  check?(body: unknown): string | null;
}

export interface ScenarioContext {
  baseUrl: string;
  connections: number;
  merchantToken: string;
  /** A merchant without a callback URL. */
  quietMerchantToken: string;
  /** Seeded invoice ids, oldest first. */
  invoiceIds: string[];
  /** The quiet merchant's seeded invoice ids. */
  quietInvoiceIds: string[];
  /** HMAC keys, at least one per connection. */
  keys: SigningKey[];
  runId: string;
}

const json201 = { 'content-type': 'application/json' };

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

function get(
  c: ScenarioContext,
  id: string,
  title: string,
  path: string,
  extra: Partial<LoadScenario> = {},
): LoadScenario {
  const headers = { authorization: `Token ${c.merchantToken}` };
  return {
    id,
    title,
    connections: c.connections,
    requests: [{ method: 'GET', path, headers }],
    preflight: () => json('GET', c.baseUrl + path, undefined, headers),
    ...extra,
  };
}

/** The body of an invoice create; a unique external_transaction_id per request. */
function invoiceBody(ext: string): string {
  return JSON.stringify({
    amount: '100.50',
    currency: 'PHP',
    external_transaction_id: ext,
    description: 'bench order',
  });
}

function invoiceCreate(
  c: { baseUrl: string; connections: number; merchantToken: string; runId: string },
  id: string,
  title = 'POST /v1/invoices/ (Token)',
  path = '/v1/invoices/',
): LoadScenario {
  const headers = { authorization: `Token ${c.merchantToken}`, ...json201 };
  let n = 0;
  return {
    id,
    title,
    connections: c.connections,
    requests: [
      {
        method: 'POST',
        path,
        headers,
        setupRequest: (req) => ({ ...req, body: invoiceBody(`bench-${c.runId}-${id}-${++n}`) }),
      },
    ],
    preflight: () =>
      json(
        'POST',
        `${c.baseUrl}${path}`,
        JSON.parse(invoiceBody(`bench-${c.runId}-${id}-pre`)),
        headers,
      ),
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

/** An HMAC-signed request: one key per connection, each with strictly increasing nonces. */
function signed(
  c: Pick<ScenarioContext, 'baseUrl' | 'connections' | 'keys'>,
  id: string,
  title: string,
  method: string,
  path: string,
  body: () => string,
): LoadScenario {
  let next = 0;
  const keyFor = () => itemAt(c.keys, next++ % c.keys.length);
  const request = (key: SigningKey): RequestSpec => ({
    method,
    path,
    setupRequest: (req) => {
      const text = body();
      const headers: Record<string, string> = { ...signedHeaders(key, c.baseUrl + path, text) };
      if (text) headers['content-type'] = 'application/json';
      return { ...req, headers, body: text || undefined };
    },
  });
  return {
    id,
    title,
    connections: Math.min(c.connections, c.keys.length),
    // Replaced per connection by setupClient; this one is built once by autocannon and never sent signed twice.
    requests: [{ method, path }],
    setupClient: (client) => client.setRequests([request(keyFor())]),
    async preflight() {
      const key = itemAt(c.keys, 0);
      const text = body();
      return json(
        method,
        c.baseUrl + path,
        text ? JSON.parse(text) : undefined,
        signedHeaders(key, c.baseUrl + path, text),
      );
    },
  };
}

/**
 * A wallet payment of a seeded invoice each: the second merchant's (no callback URL, the API path; its
 * events still get delivery rows, marked failed at once) or the first's (callbacks to the receiver).
 */
function pay(
  c: Pick<ScenarioContext, 'baseUrl' | 'connections'>,
  id: string,
  title: string,
  invoiceIds: string[],
): LoadScenario {
  let p = 0;
  const path = () => `/_sandbox/invoices/${invoiceIds[p++ % invoiceIds.length]}/payments`;
  return {
    id,
    title,
    connections: c.connections,
    requests: [
      {
        method: 'POST',
        headers: json201,
        body: JSON.stringify({ collector: 'coins_peso_wallet' }),
        setupRequest: (req) => ({ ...req, path: path() }),
      },
    ],
    preflight: () => json('POST', `${c.baseUrl}${path()}`, { collector: 'coins_peso_wallet' }),
  };
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
