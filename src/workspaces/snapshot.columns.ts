import { parseExpiry } from '../shared/clock.js';
import { required } from '../shared/defined.js';

/**
 * What each column of a snapshot table is to a saved state (docs/design.md#saved-states), written as a
 * short spec per column in snapshot.tables.ts.
 *
 * A column spec is a kind, `?` when it may be null, then for a reference the tables it may point at
 * (`*`: it may also point outside the document, at a row the restoring sandbox must hold or — when
 * nullable — is forgotten):
 * - `id`: the row's own id, renewed on restore; `ws`: the workspace's id;
 * - `secret` (a credential), `email`, `mobile`, `reference` (a counter reference): unique, renewed;
 * - `ref`: another row's id, replaced by that row's copy;
 * - `mapped`: text in which every id and credential of the document is replaced by its copy (event
 *   bodies, recorded request headers);
 * - `url`: a merchant URL; a path on the sandbox itself (the merchant's example receiver or thank-you
 *   page, `/_sandbox/inbox/<id>`) is `mapped`, an absolute URL is kept as it is;
 * - `text`, `int`, `real`, `money` (8-digit amount strings in the document), `time` (timestamps).
 */
export type ColumnKind =
  | 'id'
  | 'ws'
  | 'secret'
  | 'email'
  | 'mobile'
  | 'reference'
  | 'ref'
  | 'mapped'
  | 'url'
  | 'text'
  | 'int'
  | 'real'
  | 'money'
  | 'time';

export interface ColumnSpec {
  kind: ColumnKind;
  nullable: boolean;
  /** For `ref`: the document's tables it may name. */
  to: string[];
  /** For `ref`: it may name a row outside the document (a system account, an outlet, another tenant's wallet). */
  external: boolean;
}

export interface TableSpec {
  name: string;
  columns: Record<string, ColumnSpec>;
  /** The rows of workspace `@ws`, in the order they are restored. */
  select: string;
}

function parse(spec: string): ColumnSpec {
  const [head = '', ...rest] = spec.split(' ');
  const nullable = head.endsWith('?');
  return {
    kind: head.replace('?', '') as ColumnKind,
    nullable,
    to: rest.filter((t) => t !== '*'),
    external: rest.includes('*'),
  };
}

/** A table of the list: its columns' specs parsed, and the query of one workspace's rows. */
export function table(
  name: string,
  where: string,
  columns: Record<string, string>,
  orderBy = 'rowid',
): TableSpec {
  const parsed = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, parse(v)]));
  return {
    name,
    columns: parsed,
    select: `SELECT * FROM ${name} WHERE ${where} ORDER BY ${orderBy}`,
  };
}

/** The id column of a table's rows (what references name), if it has one. */
export function keyColumn(t: TableSpec): string | undefined {
  return Object.entries(t.columns).find(
    ([, c]) => c.kind === 'id' || (c.kind === 'secret' && t.name === 'apps'),
  )?.[0];
}

const AMOUNT = /^(-?)(\d{1,11})\.(\d{8})$/;

/** An 8-digit amount string of the document as units (the schema has already checked its form). */
export function unitsOf(text: string): bigint {
  const [, sign, pesos, fraction] = AMOUNT.exec(text) ?? [];
  if (pesos === undefined || fraction === undefined) throw new Error(`not an amount: "${text}"`);
  const units = BigInt(pesos) * 100_000_000n + BigInt(fraction);
  return sign ? -units : units;
}

/** A timestamp of the document as sandbox microseconds (the schema has already checked its form). */
export function microsOf(text: string): number {
  return required(parseExpiry(text, 0), `a timestamp, not "${text}"`);
}
