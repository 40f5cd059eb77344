import { randomInt } from 'node:crypto';
import type { Db } from '../db/open.js';
import { ApiError } from '../shared/api-error.js';
import { CREDENTIAL_LENGTH, newAccessToken, randomCredential } from '../shared/credentials.js';
import { required } from '../shared/defined.js';
import { formatMoney, MAX_ACCOUNT_UNITS } from '../shared/money.js';
import {
  inboxMerchantOf,
  isSandboxPath,
  withInboxMerchant,
  type SandboxAddresses,
} from '../shared/sandbox-url.js';
import type { IdFactory } from '../shared/ids.js';
import { rowsOf, type SnapshotDocument, type SnapshotValue } from './snapshot.capture.js';
import { microsOf, unitsOf, type ColumnSpec, type TableSpec } from './snapshot.columns.js';
import { ADDED_COLUMNS, SNAPSHOT_TABLES } from './snapshot.tables.js';

/**
 * A new value of credential column `column` of `table`, made as the sandbox issues that credential (a
 * merchant token, an API key or secret in base36, an access token in hex, each of its usual length), so
 * a restored workspace's credentials look like a fresh one's.
 */
function freshCredential(table: string, column: string, old: string): string {
  if (table === 'app_access_tokens') return newAccessToken();
  return randomCredential(ISSUED_LENGTH[`${table}.${column}`] ?? Math.max(old.length, 16));
}
const ISSUED_LENGTH: Readonly<Record<string, number>> = {
  'merchants.merchant_api_token': CREDENTIAL_LENGTH.merchantToken,
  'merchants.bearer_token': CREDENTIAL_LENGTH.bearerToken,
  'apps.api_key': CREDENTIAL_LENGTH.apiKey,
  'apps.api_secret': CREDENTIAL_LENGTH.apiSecret,
};
const randomDigits = (length: number) =>
  String(randomInt(1, 10)) + Array.from({ length: length - 1 }, () => randomInt(10)).join('');
// A run of the characters an email may hold: it is one when an `@` has one before and after it, as
// `/[^\s"'<>(),;:]+@[^\s"'<>(),;:]+/g` finds it, without that expression's quadratic time on a long
// run with no `@` (docs/design.md#input-handling).
const EMAIL_RUN = /[^\s"'<>(),;:]+/g;
const isEmailRun = (run: string) => {
  const at = run.indexOf('@', 1);
  return at > 0 && at < run.length - 1;
};
const WORD = /[A-Za-z0-9_+-]+/g;
const ALNUM = /[A-Za-z0-9]+/g;

/**
 * Replace, in `text`, every email, then every word (letters, digits, `_`, `-`, `+`) and, within a word
 * that is not one, every run of letters and digits that `map` renews. Linear in the text, whatever the
 * number of renewed values (a large document must not make a restore slow).
 */
export function substitute(map: Map<string, string>, text: string): string {
  const renew = (v: string) => map.get(v);
  return text
    .replace(EMAIL_RUN, (e) => (isEmailRun(e) ? (renew(e) ?? e) : e))
    .replace(WORD, (w) => renew(w) ?? (w.length < 8 ? w : w.replace(ALNUM, (a) => renew(a) ?? a)));
}

export interface RestoreTarget {
  workspaceId: string;
  ids: IdFactory;
  /** The sandbox's addresses: an absolute URL to its example receiver is followed like the path. */
  own: SandboxAddresses;
}

/**
 * Write a checked document's rows as a new workspace's (docs/design.md#saved-states), inside the caller's
 * unit of work. Ids and the credentials that must be unique are renewed, and every reference and every
 * `mapped` text follows them; balances are rebuilt by replaying the ledger entries (so they are the
 * sum of their entries by construction); the outbox keeps its order and deliveries in flight are due
 * again. A constraint the document breaks is a 400 naming the row. Returns the copy of each id or credential.
 */
export function restoreDocument(
  db: Db,
  doc: SnapshotDocument,
  target: RestoreTarget,
): (oldId: string) => string {
  const map = renewals(db, doc, target);
  const accountExists = db.prepare('SELECT 1 FROM accounts WHERE id = ?').pluck();
  // The ledger's own balance move (src/ledger/ledger.repo.ts): inside the bound, no total kept for a system account.
  const moveBalance = db
    .prepare(
      `UPDATE accounts SET balance = balance + @amount,
         total_received = CASE WHEN owner_type = 'system' THEN 0 ELSE total_received + max(@amount, 0) END
       WHERE id = @id AND abs(balance + @amount) <= @limit
         AND (owner_type = 'system' OR total_received + max(@amount, 0) <= @limit)
       RETURNING currency`,
    )
    .pluck();
  const nextSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox_events').pluck();

  for (const a of doc.system_accounts) {
    db.prepare(
      `INSERT OR IGNORE INTO accounts (id, owner_type, owner_id, name, currency, default_address, allow_negative, created_at)
       VALUES (?, 'system', 'sandbox', ?, ?, ?, 1, 0)`,
    ).run(a.id, a.name, a.currency, a.id);
  }

  function value(t: TableSpec, col: string, c: ColumnSpec, v: SnapshotValue): unknown {
    if (v === null) return null;
    switch (c.kind) {
      case 'ws':
        return target.workspaceId;
      case 'id':
      case 'secret':
      case 'email':
      case 'mobile':
      case 'reference':
        return map.get(v as string);
      case 'ref':
        if (map.has(v as string)) return map.get(v as string);
        // Outside the document: kept when this sandbox holds the row (a system account, an outlet), else forgotten.
        return c.to[0] !== 'accounts' || accountExists.get(v) ? v : null;
      case 'mapped':
        return substitute(map, v as string);
      case 'url': {
        // The example receiver or thank-you page of a merchant of the document (a path, or an absolute
        // URL to this sandbox) becomes its copy's, however it was spelled; another site is kept.
        const named = inboxMerchantOf(v as string, target.own);
        const copy = named === null ? undefined : map.get(named);
        const url =
          copy === undefined ? (v as string) : withInboxMerchant(v as string, target.own, copy);
        return isSandboxPath(url) || copy !== undefined ? substitute(map, url) : url;
      }
      case 'money':
        return t.name === 'accounts' && col !== 'pending_balance' ? 0n : unitsOf(v as string);
      case 'time':
        return microsOf(v as string);
      default:
        return v;
    }
  }

  for (const t of SNAPSHOT_TABLES) {
    const cols = Object.keys(t.columns);
    const extra = t.name === 'outbox_events' ? ['seq'] : [];
    const insert = db.prepare(
      `INSERT INTO ${t.name} (${[...cols, ...extra].join(', ')}) VALUES (${[...cols, ...extra].map((c) => `@${c}`).join(', ')})`,
    );
    rowsOf(doc, t.name).forEach((row, i) => {
      const values: Record<string, unknown> = {};
      const added = ADDED_COLUMNS[t.name] ?? {};
      for (const [col, spec] of Object.entries(t.columns)) {
        const v = row[col] === undefined ? (added[col] ?? null) : row[col];
        values[col] = value(t, col, spec, v);
      }
      if (t.name === 'outbox_events') values.seq = nextSeq.get();
      if (t.name === 'deliveries' && values.status === 'delivering') values.status = 'pending';
      try {
        insert.run(values);
        if (
          t.name === 'ledger_entries' &&
          moveBalance.get({
            amount: values.amount,
            id: values.account_id,
            limit: MAX_ACCOUNT_UNITS,
          }) === undefined
        ) {
          throw ApiError.field(
            `tables.${t.name}[${i}]`,
            `The entry would take account ${String(values.account_id)} past ${formatMoney(MAX_ACCOUNT_UNITS)}.`,
          );
        }
      } catch (err) {
        if ((err as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT')) {
          throw ApiError.field(
            `tables.${t.name}[${i}]`,
            `The row breaks a rule of the sandbox's storage (${(err as Error).message}).`,
          );
        }
        throw err;
      }
    });
  }
  return (oldId) => required(map.get(oldId), `the renewed id of ${oldId}`);
}

/** Every id and unique credential of the document, with its renewal. */
function renewals(db: Db, doc: SnapshotDocument, target: RestoreTarget): Map<string, string> {
  const map = new Map<string, string>();
  if (doc.source_workspace_id) map.set(doc.source_workspace_id, target.workspaceId);
  const emails: Array<[string, string]> = [];
  const mobileTaken = db.prepare('SELECT 1 FROM users WHERE mobile_number = ?').pluck();
  const referenceTaken = db
    .prepare('SELECT 1 FROM invoices WHERE current_payment_reference_number = ?')
    .pluck();
  for (const t of SNAPSHOT_TABLES) {
    for (const row of rowsOf(doc, t.name)) {
      for (const [col, c] of Object.entries(t.columns)) {
        const v = row[col];
        if (typeof v !== 'string' || map.has(v)) continue;
        if (c.kind === 'id') map.set(v, target.ids());
        else if (c.kind === 'secret') map.set(v, freshCredential(t.name, col, v));
        else if (c.kind === 'email') emails.push([v, v]);
        else if (c.kind === 'mobile')
          map.set(
            v,
            unique(() => `+639${String(randomInt(0, 1e9)).padStart(9, '0')}`, mobileTaken),
          );
        else if (c.kind === 'reference')
          map.set(
            v,
            unique(() => randomDigits(Math.max(v.length, 10)), referenceTaken),
          );
      }
    }
  }
  // Emails last: one that names a renewed id (`ws-<id>@…`) follows it; any other gets a random tag
  // (`qa.lead+k3x9…@…`) that no user holds, so one document restores any number of times, at any pace.
  const emailTaken = db.prepare('SELECT 1 FROM users WHERE email = ?').pluck();
  const given = new Set<string>();
  const taken = { get: (v: string) => given.has(v) || emailTaken.get(v) !== undefined };
  for (const [email] of emails) {
    const renamed = substitute(map, email);
    const at = email.lastIndexOf('@');
    const copy =
      renamed !== email
        ? renamed
        : unique(() => `${email.slice(0, at)}+${randomCredential(8)}${email.slice(at)}`, taken);
    given.add(copy);
    map.set(email, copy);
  }
  return map;
}

function unique(make: () => string, taken: { get(v: string): unknown }): string {
  for (;;) {
    const v = make();
    if (!taken.get(v)) return v;
  }
}
