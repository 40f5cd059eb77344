import type { Db } from '../db/open.js';
import { ApiError } from '../shared/api-error.js';
import { formatMoney, MAX_ACCOUNT_UNITS } from '../shared/money.js';
import { rowsOf, type SnapshotDocument } from './snapshot.capture.js';
import { keyColumn, unitsOf } from './snapshot.columns.js';
import { checkFields, type SnapshotSandbox } from './snapshot.fields.js';
import { SNAPSHOT_TABLES } from './snapshot.tables.js';

/**
 * What the schema cannot say about a document (docs/design.md#saved-states): ids unique, every reference
 * names a row of the document (or, where the column allows it, a row this sandbox holds), each account's
 * owner is of its `owner_type`, the ledger balances and every account's balance is the sum of its
 * entries; and every field to the API's own rules (snapshot.fields.ts), `taken_at` near `nowMicros` (the
 * sandbox's time), a URL to `own` (its addresses) as the sandbox itself. Throws one 400 naming every field at fault (at most 20).
 */
export function checkDocument(
  db: Db,
  doc: SnapshotDocument,
  nowMicros: number,
  own: SnapshotSandbox,
): void {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => {
    if (Object.keys(errors).length < 20) (errors[field] ??= []).push(message);
  };
  checkFields(doc, nowMicros, own, fail);
  for (const [table, what] of [
    ['merchants', 'merchant'],
    ['apps', 'application'],
  ] as const) {
    if (rowsOf(doc, table).length === 0)
      fail(`tables.${table}`, `A workspace needs at least one ${what}.`);
  }
  if (!rowsOf(doc, 'users').some((u) => u.kind === 'customer'))
    fail('tables.users', 'A workspace needs at least one customer.');
  const keys = new Map<string, Set<string>>();
  for (const t of SNAPSHOT_TABLES) {
    const key = keyColumn(t);
    if (!key) continue;
    const seen = new Set<string>();
    rowsOf(doc, t.name).forEach((row, i) => {
      const v = row[key] as string;
      if (seen.has(v))
        fail(`tables.${t.name}[${i}].${key}`, 'Another row of this table has the same value.');
      seen.add(v);
    });
    keys.set(t.name, seen);
  }
  const systemIds = new Set(doc.system_accounts.map((a) => a.id));
  const held: Record<string, (id: string) => boolean> = {
    accounts: (id) => db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(id) !== undefined,
    outlets: (id) => db.prepare('SELECT 1 FROM outlets WHERE id = ?').get(id) !== undefined,
  };
  doc.system_accounts.forEach((a, i) => {
    const row = db.prepare('SELECT owner_type, currency FROM accounts WHERE id = ?').get(a.id) as
      { owner_type: string; currency: string } | undefined;
    if (row && (row.owner_type !== 'system' || row.currency !== a.currency)) {
      fail(
        `system_accounts[${i}].id`,
        `This sandbox's account ${a.id} is not a ${a.currency} system account.`,
      );
    }
  });

  for (const t of SNAPSHOT_TABLES) {
    rowsOf(doc, t.name).forEach((row, i) => {
      for (const [col, c] of Object.entries(t.columns)) {
        const v = row[col];
        if (c.kind !== 'ref' || v === null) continue;
        if (c.to.some((target) => keys.get(target)?.has(v as string))) continue;
        if (t.name === 'ledger_entries' && systemIds.has(v as string)) continue;
        // A nullable reference outside the document is forgotten on restore when this sandbox lacks its row.
        if (c.external && (c.nullable || held[c.to[0] ?? '']?.(v as string))) continue;
        fail(
          `tables.${t.name}[${i}].${col}`,
          `No row of ${c.to.join(' or ')} has the id ${String(v).slice(0, 64)}.`,
        );
      }
    });
  }

  const users = new Set(rowsOf(doc, 'users').map((u) => u.id));
  const merchants = new Set(rowsOf(doc, 'merchants').map((m) => m.id));
  rowsOf(doc, 'accounts').forEach((a, i) => {
    const owners =
      a.owner_type === 'user' ? users : a.owner_type === 'merchant' ? merchants : undefined;
    if (!owners?.has(a.owner_id as string))
      fail(`tables.accounts[${i}].owner_id`, `The owner is not a ${a.owner_type} of the document.`);
  });

  checkLedger(doc, fail);
  if (Object.keys(errors).length) throw new ApiError('validation_error', errors);
}

function checkLedger(doc: SnapshotDocument, fail: (field: string, message: string) => void): void {
  const currencyOf = new Map<string, string>([
    ...rowsOf(doc, 'accounts').map((a) => [a.id as string, a.currency as string] as const),
    ...doc.system_accounts.map((a) => [a.id, a.currency] as const),
  ]);
  const txCurrency = new Map<string, string>();
  rowsOf(doc, 'ledger_entries').forEach((e, i) => {
    const [tx, currency] = [e.transaction_id as string, currencyOf.get(e.account_id as string)];
    if (currency && (txCurrency.get(tx) ?? currency) !== currency)
      fail(
        `tables.ledger_entries[${i}].account_id`,
        'A ledger transaction holds one currency only.',
      );
    if (currency) txCurrency.set(tx, txCurrency.get(tx) ?? currency);
  });
  const txSum = new Map<string, bigint>();
  const balance = new Map<string, bigint>();
  const received = new Map<string, bigint>();
  for (const e of rowsOf(doc, 'ledger_entries')) {
    const amount = unitsOf(e.amount as string);
    const tx = e.transaction_id as string;
    const account = e.account_id as string;
    txSum.set(tx, (txSum.get(tx) ?? 0n) + amount);
    balance.set(account, (balance.get(account) ?? 0n) + amount);
    if (amount > 0n) received.set(account, (received.get(account) ?? 0n) + amount);
  }
  rowsOf(doc, 'ledger_transactions').forEach((t, i) => {
    const sum = txSum.get(t.id as string);
    if (sum === undefined)
      fail(`tables.ledger_transactions[${i}]`, 'A ledger transaction needs its entries.');
    else if (sum !== 0n)
      fail(`tables.ledger_transactions[${i}]`, `Its entries sum to ${sum} units, not 0.`);
  });
  rowsOf(doc, 'accounts').forEach((a, i) => {
    const sum = balance.get(a.id as string) ?? 0n;
    if (unitsOf(a.balance as string) !== sum)
      fail(
        `tables.accounts[${i}].balance`,
        'The balance is not the sum of the ledger entries of the account.',
      );
    if (unitsOf(a.total_received as string) !== (received.get(a.id as string) ?? 0n)) {
      fail(
        `tables.accounts[${i}].total_received`,
        'total_received is not the sum of the credits of the account.',
      );
    }
    if (sum < 0n && a.allow_negative === 0)
      fail(`tables.accounts[${i}].balance`, 'A wallet cannot be negative.');
    if (
      sum > MAX_ACCOUNT_UNITS ||
      -sum > MAX_ACCOUNT_UNITS ||
      (received.get(a.id as string) ?? 0n) > MAX_ACCOUNT_UNITS
    ) {
      fail(
        `tables.accounts[${i}].balance`,
        `An account stays within ${formatMoney(MAX_ACCOUNT_UNITS)}.`,
      );
    }
  });
}
