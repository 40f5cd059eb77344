/**
 * The requests the API's load scenarios are made of (bench/scenarios/api.ts lists the scenarios): a
 * merchant GET, an invoice create, an HMAC-signed request and a wallet payment, each as a scenario.
 */
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

/** A GET with the merchant's Token. */
export function get(
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

/** An invoice create with the merchant's Token: a new external_transaction_id each request. */
export function invoiceCreate(
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

/** An HMAC-signed request: one key per connection, each with strictly increasing nonces. */
export function signed(
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
export function pay(
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
