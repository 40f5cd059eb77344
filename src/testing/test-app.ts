import { afterEach, beforeEach, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { openDatabase, openDatabaseCopy, type Db } from '../db/open.js';
import { signRequest } from '../auth/hmac.js';
import type { AppConfig } from '../config.js';
import { createSandbox, sharedSpec, type Sandbox, type SandboxOptions } from '../sandbox.js';
import { assertLedgerInvariants } from '../ledger/invariants.js';
import { required } from '../shared/defined.js';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is (takes precedence over `body`). */
  raw?: string;
  headers?: Record<string, string>;
  /** Merchant token, sent as `Authorization: Token <t>`. */
  token?: string;
  /** Validate the response against the document for this operationId (default: inferred). */
  operationId?: string | false;
}

const BASE_CONFIG: Partial<AppConfig> = {
  db: ':memory:',
  publicUrl: 'http://localhost',
  quiet: true,
};

// The default fixtures, migrated and loaded once per worker (a test file's process) and serialized:
// each test then starts from a copy of it instead of migrating and seeding its own (~13 ms each).
let seeded: Buffer | undefined;
function seededImage(): Buffer {
  if (!seeded) {
    const db = openDatabase(':memory:');
    const sandbox = createSandbox({ db, spec: sharedSpec(), config: BASE_CONFIG });
    sandbox.services.writeBatch.flush();
    seeded = db.serialize();
    void sandbox.close();
  }
  return seeded;
}

/**
 * A database file at `path` holding the default fixtures, migrated and seeded (a copy of the worker's
 * image): what `openDatabase(path)` of a fresh file would make, without migrating and seeding it again.
 */
export function seededDatabaseFile(path: string): string {
  writeFileSync(path, seededImage());
  return path;
}

/**
 * The infrastructure and the modules' apis under the names tests have always used
 * (`t.services.identities`, `t.services.invoiceRepo`...). For tests only: production code receives
 * from src/modules.ts just the apis it declares.
 */
export function testServices(sandbox: Sandbox) {
  const m = sandbox.modules;
  return {
    ...sandbox.services,
    identities: m.identities.api,
    ledger: m.ledger.api,
    invoiceRepo: m.invoices.repo,
    invoices: m.invoices.api,
    payments: m.payments.api,
    accounts: m.accounts.api,
  };
}

/**
 * A fresh in-memory sandbox per test (house style: no shared database), with request helpers that
 * validate every response body against the OpenAPI document. Its database is a private copy of one
 * seeded per worker unless the test brings its own database, fixtures, ids or real clock (those
 * decide what the fixture rows hold, so they are loaded for that test alone).
 */
export function createTestApp(
  opts: { config?: Partial<AppConfig> } & Omit<SandboxOptions, 'config'> = {},
) {
  const ownSeed =
    opts.fixtures !== undefined ||
    opts.ids !== undefined ||
    opts.realNowMs !== undefined ||
    opts.config?.fixtures !== undefined;
  const sandbox: Sandbox = createSandbox({
    db: opts.db ?? (ownSeed ? openDatabase(':memory:') : openDatabaseCopy(seededImage())),
    spec: sharedSpec(),
    ...opts,
    config: { ...BASE_CONFIG, ...opts.config },
  });
  const { spec, validators } = sandbox;
  const fx = sandbox.fixtures;
  let nonce = BigInt(Date.now()) * 1000n;

  function operationFor(method: string, path: string): string | undefined {
    const [pathOnly = ''] = path.split('?');
    const clean = pathOnly.replace(/^\/(api\/(v[23])|d\/api)\//, (_, __, v) =>
      v ? `/${v}/` : '/v1/',
    );
    const norm = clean.replace(/\/$/, '');
    return spec.operations.find((o) => {
      if (o.method !== method.toLowerCase()) return false;
      const re = new RegExp('^' + o.path.replace(/\/$/, '').replace(/\{[^}]+\}/g, '[^/]+') + '$');
      return re.test(norm);
    })?.operationId;
  }

  async function request<T = any>(
    method: string,
    path: string,
    o: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Token ${o.token}`;
    let body: string | undefined = o.raw;
    if (body === undefined && o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const res = await sandbox.app.request(`http://localhost${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if (res.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
    const opId =
      o.operationId === false ? undefined : (o.operationId ?? operationFor(method, path));
    if (opId && res.status !== 204) {
      const validate = validators.response(opId, res.status);
      expect(
        validate,
        `the document lists no ${res.status} response for ${opId} (body: ${text.slice(0, 300)})`,
      ).toBeDefined();
      if (validate && !validate(parsed)) {
        throw new Error(
          `${opId} ${res.status} response does not match the document: ${JSON.stringify(validate.errors)}\n${text.slice(0, 500)}`,
        );
      }
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  /** A signed developer-API request; the body is serialized once and those exact bytes are signed. */
  async function signed<T = any>(
    method: string,
    path: string,
    o: RequestOptions & {
      key?: string;
      secret?: string;
      nonce?: string;
      url?: string;
      spelling?: 'underscore' | 'dash';
    } = {},
  ): Promise<TestResponse<T>> {
    const dev = required(fx.developers[0], 'a fixture developer');
    const key = o.key ?? dev.app.api_key;
    const secret = o.secret ?? dev.app.api_secret;
    const n = o.nonce ?? String((nonce += 1n));
    const body = o.raw ?? (o.body !== undefined ? JSON.stringify(o.body) : '');
    const url = o.url ?? `http://localhost${path}`;
    const sig = signRequest(secret, n, url, body);
    const [keyName, signatureName, nonceName] =
      o.spelling === 'dash'
        ? ['Access-Key', 'Access-Signature', 'Access-Nonce']
        : ['ACCESS_KEY', 'ACCESS_SIGNATURE', 'ACCESS_NONCE'];
    return request<T>(method, path, {
      ...o,
      raw: body || undefined,
      headers: { [keyName]: key, [signatureName]: sig, [nonceName]: n, ...o.headers },
    });
  }

  return {
    sandbox,
    services: testServices(sandbox),
    db: sandbox.services.db as Db,
    fixtures: fx,
    merchant: required(fx.merchants[0], 'a fixture merchant'),
    otherMerchant: required(fx.merchants[1], 'a second fixture merchant'),
    request,
    signed,
    /** Move the sandbox clock forward. */
    advance(seconds: number) {
      const c = sandbox.services.clock;
      c.setOffsetMicros(c.offsetMicros() + seconds * 1_000_000);
    },
    assertLedger: () => assertLedgerInvariants(sandbox.services.db),
    close: () => sandbox.close(),
  };
}

export type TestApp = ReturnType<typeof createTestApp>;

/**
 * For the calling test file: a fresh default app before each test, handed to `use`, and closed after
 * it: `let t: TestApp; appPerTest((app) => (t = app));`. A file whose tests may swap in an app of
 * their own (`await t.close(); t = createTestApp({ config })`) passes `() => t` as `current`, so that
 * the app the test ends with is the one closed.
 */
export function appPerTest(use: (t: TestApp) => void, current?: () => TestApp): void {
  let app: TestApp | undefined;
  beforeEach(() => {
    app = createTestApp();
    use(app);
  });
  afterEach(() => (current ? current() : app)?.close());
}
