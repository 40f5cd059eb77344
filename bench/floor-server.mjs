// The floor of `npm run bench`: what an invoice create costs on this stack before any of the API runs.
// A bare Hono app on @hono/node-server (like the baseline) with two routes that take the create's request:
//   POST /echo          reads the JSON body and answers 201 with an invoice-sized JSON object (HTTP + JSON);
//   POST /v1/invoices/  the same, plus the sandbox's OWN storage of a create, from the built code: one
//                       unit of work in its group commit (src/db/unit-of-work.ts) inserting the invoice
//                       (its indexes and count row), the `invoice.created` outbox event and its delivery row,
//                       and the answer only after the commit. No auth, validation, clock or views;
//   POST /_sandbox/invoices/:id/payments  a wallet payment's own storage, from the built code: the invoice
//                       read, the payer's wallet read, the ledger transaction (its entries and both balance
//                       updates, src/ledger/ledger.repo.ts), the payment row, the invoice update (and its count
//                       row), the `invoice.fully_paid` event and its delivery row, one unit of work in the group
//                       commit, the answer after it. No auth, validation, clock, payment rules or views;
//   GET /v3/crypto-accounts/  what a signed read must do at least: HMAC-SHA256 of nonce + URL + body checked
//                       in constant time, the nonce advanced durably (one conditional UPDATE in the group
//                       commit, the sandbox's statement), the caller's accounts read, the answer after the commit.
// It opens a copy of the bench's seeded database (same rows, same indexes, same pragmas), so the tables
// are as deep as the sandbox's; the signing keys (JSON [{apiKey, apiSecret}]) become apps of the first developer.
// Usage: node bench/floor-server.mjs <port> <db file> <merchant token> <keys JSON>
import { serve } from '@hono/node-server';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { createEventDeliveryWriter } from '../dist/src/callbacks/event-delivery.writer.js';
import { openDatabase } from '../dist/src/db/open.js';
import { createWriteBatch } from '../dist/src/db/unit-of-work.js';
import { createOutbox } from '../dist/src/events/outbox.repo.js';
import { createInvoiceRepository } from '../dist/src/invoices/invoices.repo.js';
import { createLedgerRepository } from '../dist/src/ledger/ledger.repo.js';
import { newId } from '../dist/src/shared/ids.js';

const [port = '0', dbPath, token, keysJson = '[]'] = process.argv.slice(2);
if (!dbPath || !token)
  throw new Error('usage: floor-server.mjs <port> <db file> <merchant token> [keys JSON]');

const db = openDatabase(dbPath);
const merchant = db.prepare('SELECT * FROM merchants WHERE merchant_api_token = ?').get(token);
if (!merchant) throw new Error(`no merchant with the token ${token} in ${dbPath}`);
const clock = { now: () => Date.now() * 1000 };
const merchantRow = db.prepare('SELECT * FROM merchants WHERE id = ?');
const merchants = new Map([[merchant.id, merchant]]);
/** Merchants by id, read once (the sandbox keeps them cached too). */
const merchantById = (id) => {
  if (!merchants.has(id)) merchants.set(id, merchantRow.get(id));
  return merchants.get(id);
};
const writeDelivery = createEventDeliveryWriter({ db, ids: newId, merchantById });
const outbox = createOutbox(db, clock, newId, writeDelivery);
const batch = createWriteBatch(db, outbox);
const invoices = createInvoiceRepository(db);
const ledger = createLedgerRepository(db, clock, newId);
// The payer: the customer with the most pesos (the sandbox's payments scenario pays with the first one).
const payer = db
  .prepare(
    `SELECT u.id FROM users u JOIN accounts a ON a.owner_type = 'user' AND a.owner_id = u.id
     WHERE u.kind = 'customer' AND a.currency = 'PHP' ORDER BY a.balance DESC LIMIT 1`,
  )
  .pluck()
  .get();

const developer = db.prepare("SELECT id FROM users WHERE kind = 'developer' LIMIT 1").pluck().get();
const secrets = new Map();
const addApp = db.prepare(
  `INSERT INTO apps (api_key, api_secret, name, owner_id, mfa_whitelisted, otp_secret, last_nonce, workspace_id,
     created_at, business_account, daily_buy_limit)
   VALUES (?, ?, 'floor app', ?, 1, 'JBSWY3DPEHPK3PXP', NULL, NULL, ?, 1, NULL)`,
);
for (const k of JSON.parse(keysJson)) {
  addApp.run(k.apiKey, k.apiSecret, developer, clock.now());
  secrets.set(k.apiKey, { secret: k.apiSecret, owner: developer });
}
// The sandbox's own nonce statement (src/identities/identities.repo.ts).
const advanceNonce = db.prepare(
  `UPDATE apps SET last_nonce = @nonce WHERE api_key = @key AND disabled = 0 AND (last_nonce IS NULL
     OR length(last_nonce) < length(@nonce) OR (length(last_nonce) = length(@nonce) AND last_nonce < @nonce))`,
);
const accountsOf = db.prepare(
  "SELECT * FROM accounts WHERE owner_type = 'user' AND owner_id = ? ORDER BY created_at DESC, id DESC",
);

/** The request body as the sandbox reads it: straight from the socket, one parse. */
const readJson = (incoming) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    incoming.on('data', (chunk) => chunks.push(chunk));
    incoming.once('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    incoming.once('error', reject);
  });

/** An invoice-shaped answer of the same keys and size as the sandbox's (values from the request). */
const answer = (id, body, now) => ({
  id,
  amount: body.amount,
  amount_due: body.amount,
  amount_received: '0',
  currency: body.currency,
  status: 'pending',
  external_transaction_id: body.external_transaction_id,
  description: body.description ?? '',
  metadata: body.metadata ?? {},
  supported_payment_collectors: body.supported_payment_collectors ?? ['coins_peso_wallet'],
  payment_url: `http://127.0.0.1:${port}/checkout/${id}`,
  created_at: new Date(now / 1000).toISOString(),
  updated_at: new Date(now / 1000).toISOString(),
  expires_at: new Date(now / 1000 + 86_400_000).toISOString(),
});

const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok', version: 'floor' }));
app.post('/echo', async (c) => {
  const body = await readJson(c.env.incoming);
  return c.json(answer(newId(), body, clock.now()), 201);
});
app.post('/v1/invoices/', async (c) => {
  const body = await readJson(c.env.incoming);
  const now = clock.now();
  const fields = {
    id: newId(),
    merchant_id: merchant.id,
    amount: BigInt(Math.round(Number(body.amount) * 100)) * 1_000_000n,
    currency: body.currency,
    external_transaction_id: body.external_transaction_id,
    description: body.description ?? '',
    metadata: JSON.stringify(body.metadata ?? {}),
    supported_payment_collectors: JSON.stringify(['coins_peso_wallet']),
    created_at: now,
    expires_at: now + 86_400_000_000,
  };
  batch.unit(() => {
    if (!invoices.insert(fields)) throw new Error('duplicate external_transaction_id');
    const row = invoices.inserted(fields);
    const data = {
      id: row.id,
      currency: row.currency,
      amount: body.amount,
      amount_received: '0',
      external_transaction_id: row.external_transaction_id,
    };
    outbox.append('invoice.created', merchant.id, { event: { name: 'invoice.created', data } });
  });
  await batch.settled();
  return c.json(answer(fields.id, body, now), 201);
});

/** An amount in the ledger's units (10⁻⁸) as the API writes it. */
const decimal = (units) => {
  const whole = units / 100_000_000n;
  // eslint-disable-next-line regexp/no-super-linear-move -- eight characters, the benchmark's own figures
  const frac = (units % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
};
app.post('/_sandbox/invoices/:id/payments', async (c) => {
  await readJson(c.env.incoming);
  const inv = invoices.byId(c.req.param('id'));
  if (!inv || inv.status !== 'pending')
    return c.json({ errors: { invoice: ['not payable'] } }, 409);
  const now = clock.now();
  const value = inv.amount - inv.amount_received;
  const payment = batch.unit(() => {
    const wallet = ledger.byOwner('user', payer).find((a) => a.currency === inv.currency);
    const tx = ledger.post('invoice_payment', inv.id, [
      { accountId: wallet.id, amount: -value },
      { accountId: merchantById(inv.merchant_id).wallet_account_id, amount: value },
    ]);
    const row = {
      id: newId(),
      invoice_id: inv.id,
      amount: value,
      payment_collector: 'coins_peso_wallet',
      reference_number: null,
      payer_account_id: wallet.id,
      ledger_transaction_id: tx,
      created_at: now,
    };
    invoices.insertPayment(row);
    invoices.save({ ...inv, status: 'fully_paid', amount_received: inv.amount, updated_at: now });
    const data = {
      id: inv.id,
      currency: inv.currency,
      amount: decimal(inv.amount),
      amount_received: decimal(inv.amount),
      external_transaction_id: inv.external_transaction_id,
    };
    outbox.append('invoice.fully_paid', inv.merchant_id, {
      event: { name: 'invoice.fully_paid', data },
    });
    return row;
  });
  await batch.settled();
  const at = new Date(now / 1000).toISOString();
  return c.json(
    {
      payment: {
        id: payment.id,
        amount: decimal(value),
        payment_collector: payment.payment_collector,
        reference_number: null,
        created_at: at,
      },
      invoice: {
        id: inv.id,
        amount: decimal(inv.amount),
        amount_due: '0',
        amount_received: decimal(inv.amount),
        currency: inv.currency,
        status: 'fully_paid',
        external_transaction_id: inv.external_transaction_id,
        description: inv.description,
        metadata: JSON.parse(inv.metadata),
        supported_payment_collectors: inv.supported_payment_collectors,
        payment_url: `http://127.0.0.1:${port}/checkout/${inv.id}`,
        created_at: new Date(Number(inv.created_at) / 1000).toISOString(),
        updated_at: at,
        expires_at: new Date(Number(inv.expires_at) / 1000).toISOString(),
      },
    },
    201,
  );
});

app.get('/v3/crypto-accounts/', async (c) => {
  const key = c.req.header('access_key') ?? '';
  const nonce = c.req.header('access_nonce') ?? '';
  const app = secrets.get(key);
  if (!app) return c.json({ detail: 'unknown key' }, 401);
  const expected = createHmac('sha256', app.secret).update(nonce).update(c.req.url).digest();
  const given = Buffer.from(c.req.header('access_signature') ?? '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return c.json({ detail: 'bad signature' }, 401);
  if (batch.statement(() => advanceNonce.run({ key, nonce }).changes) !== 1)
    return c.json({ detail: 'nonce too low' }, 401);
  const accounts = accountsOf.all(app.owner).map((a) => ({
    id: a.id,
    name: a.name,
    currency: a.currency,
    balance: String(a.balance),
    pending_balance: String(a.pending_balance),
    default_address: a.default_address,
  }));
  await batch.settled();
  return c.json({ 'crypto-accounts': accounts, meta: { total_count: accounts.length } });
});

const server = serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' }, (info) => {
  console.log(`floor listening on http://127.0.0.1:${info.port}`);
});
server.keepAliveTimeout = 65_000;
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () =>
    server.close(() => {
      batch.flush();
      db.close();
      process.exit(0);
    }),
  );
