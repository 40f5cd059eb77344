import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { signingKey, type SigningKey } from './hmac.js';
import { json } from './net.js';

type SandboxModule = typeof import('../../src/sandbox.js');
type FixturesModule = typeof import('../../src/fixtures/load.js');

export const UNITS_PER_PESO = 100_000_000n;

/** What the scenarios need to know about the seeded database. */
export interface Seeded {
  merchantToken: string;
  /** The second merchant: no callback URL. */
  quietMerchantToken: string;
  merchantId: string;
  /** Ids of the seeded invoices, oldest first (all pending, 1 PHP, expiring in 30 days). */
  invoiceIds: string[];
  /** Ids of the second merchant's seeded invoices (the same kind), for payments without callbacks. */
  quietInvoiceIds: string[];
  /** HMAC apps made at seed time (only when the control API cannot make them). */
  apps: Array<{ api_key: string; api_secret: string }>;
  /** True when `POST /_sandbox/apps` is implemented by this build. */
  createAppAvailable: boolean;
  seedMs: number;
}

/** The id of seeded invoice `i`: 32 hex characters, like every id of the API. */
export function seededInvoiceId(i: number, prefix: 'b' | 'c' = 'b'): string {
  return prefix + i.toString(16).padStart(31, '0');
}

/** The second merchant's seeded invoices: as many as the payment scenario can pay in a long run. */
const QUIET_INVOICES = 50_000;

/**
 * Prepare a fresh database file with the BUILT code (the same code the server runs): migrations,
 * default fixtures, then `invoices` invoices of the first merchant in one bulk INSERT (so the count
 * triggers run), and up to 50,000 of the second (no callback URL). Merchant callbacks go to
 * `callbackUrl`, and the first customer's wallet is funded for the payment scenario.
 */
export async function seedDatabase(o: {
  root: string;
  db: string;
  invoices: number;
  callbackUrl: string;
  benchApps: number;
}): Promise<Seeded> {
  const started = performance.now();
  const sandboxModule = (await import(
    pathToFileURL(join(o.root, 'dist/src/sandbox.js')).href
  )) as SandboxModule;
  const fixturesModule = (await import(
    pathToFileURL(join(o.root, 'dist/src/fixtures/load.js')).href
  )) as FixturesModule;
  const sandbox = sandboxModule.createSandbox({ config: { db: o.db, quiet: true } });
  try {
    const s = {
      ...sandbox.services,
      identities: sandbox.modules.identities.api,
      ledger: sandbox.modules.ledger.api,
    };
    const merchant = sandbox.fixtures.merchants[0];
    if (!merchant) throw new Error('the fixtures have no merchant');
    // The first merchant's callbacks go to the bench's receiver; the second has none (its invoices still
    // get a delivery row, marked failed at once: the API path without sending callbacks).
    const quiet = sandbox.fixtures.merchants[1];
    if (!quiet) throw new Error('the fixtures need two merchants');
    s.identities.updateMerchant(merchant.id, { callback_url: o.callbackUrl });
    s.identities.updateMerchant(quiet.id, { callback_url: null });

    const now = s.clock.now();
    // One INSERT … SELECT over a counter: the real table, its constraints and its count triggers, without
    // a round trip from JavaScript per row. One millisecond apart, all in the past, so the newest seeded
    // invoice is first on page 1; pending, 1 PHP, expiring in 30 days.
    const seedInvoices = (
      prefix: 'b' | 'c',
      m: { id: string; enabled_payment_collectors: readonly string[] },
      count: number,
    ) =>
      s.db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @count - 1)
         INSERT INTO invoices (id, merchant_id, status, amount, amount_received, currency, external_transaction_id, description,
           metadata, supported_payment_collectors, current_payment_reference_number, created_at, updated_at, expires_at)
         SELECT @prefix || printf('%031x', i), @merchant, 'pending', @amount, 0, 'PHP', 'seed-' || @prefix || i, 'Seeded invoice ' || i,
           '{}', @collectors, NULL, @now - (@count - i) * 1000, @now - (@count - i) * 1000, @expires FROM n`,
        )
        .run({
          prefix,
          count,
          merchant: m.id,
          amount: UNITS_PER_PESO,
          collectors: JSON.stringify(m.enabled_payment_collectors),
          now,
          expires: now + 30 * 86_400_000_000,
        });
    seedInvoices('b', merchant, o.invoices);
    const quietCount = Math.min(o.invoices, QUIET_INVOICES);
    seedInvoices('c', quiet, quietCount);
    const invoiceIds = Array.from({ length: o.invoices }, (_, i) => seededInvoiceId(i));
    const quietInvoiceIds = Array.from({ length: quietCount }, (_, i) => seededInvoiceId(i, 'c'));

    // The payment scenarios pay seeded invoices from the first customer's wallet.
    const customer = s.identities.firstCustomer();
    if (customer) {
      for (const a of s.ledger.byOwner('user', customer.id)) {
        if (a.currency === 'PHP')
          s.unitOfWork(() =>
            fixturesModule.fund(s, a.id, 10_000_000n * UNITS_PER_PESO, 'bench_funding'),
          );
      }
    }

    const createAppAvailable = typeof sandbox.handlers['createApp'] === 'function';
    const apps: Seeded['apps'] = [];
    if (!createAppAvailable) {
      // No control API to make HMAC apps: insert bench apps (owner, funded peso wallet, whitelisted).
      s.unitOfWork(() => {
        for (let i = 0; i < o.benchApps; i++) {
          const ownerId = randomBytes(16).toString('hex');
          s.identities.insertUser({
            id: ownerId,
            kind: 'developer',
            name: `Bench developer ${i}`,
            email: `bench-${ownerId}@dev.example.ph`,
            mobile_number: null,
            password: null,
            workspace_id: null,
            created_at: s.clock.now(),
          });
          const wallet = s.ledger.createAccount({
            ownerType: 'user',
            ownerId,
            name: 'PHP Wallet',
            currency: 'PHP',
          });
          fixturesModule.fund(s, wallet, 100_000_000n * UNITS_PER_PESO, 'bench_funding');
          const app = {
            api_key: randomBytes(16).toString('hex'),
            api_secret: randomBytes(24).toString('hex'),
          };
          s.identities.insertApp({
            ...app,
            name: `Bench app ${i}`,
            owner_id: ownerId,
            mfa_whitelisted: 1,
            otp_secret: 'JBSWY3DPEHPK3PXP',
            workspace_id: null,
            created_at: s.clock.now(),
          });
          apps.push(app);
        }
      });
    }
    return {
      merchantToken: merchant.merchant_api_token,
      quietMerchantToken: quiet.merchant_api_token,
      merchantId: merchant.id,
      invoiceIds,
      quietInvoiceIds,
      apps,
      createAppAvailable,
      seedMs: performance.now() - started,
    };
  } finally {
    await sandbox.close();
  }
}

/**
 * One HMAC key per connection: bench apps from the control API (whitelisted, funded wallet) on the
 * running sandbox, or the apps made at seed time when this build cannot make them.
 */
export async function benchKeys(
  sandboxUrl: string,
  seeded: Pick<Seeded, 'apps' | 'createAppAvailable'>,
  connections: number,
): Promise<SigningKey[]> {
  if (!seeded.createAppAvailable)
    return seeded.apps.map((a) => signingKey(a.api_key, a.api_secret));
  const keys: SigningKey[] = [];
  for (let i = 0; i < connections; i++) {
    const res = await json<{ app: { api_key: string; api_secret: string } }>(
      'POST',
      `${sandboxUrl}/_sandbox/apps`,
      { name: `bench ${i}`, mfa_whitelisted: true, balance: '100000000' },
    );
    if (res.status !== 201)
      throw new Error(`POST /_sandbox/apps answered ${res.status}: ${JSON.stringify(res.body)}`);
    keys.push(signingKey(res.body.app.api_key, res.body.app.api_secret));
  }
  return keys;
}
