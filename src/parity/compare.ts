import type { RecordedAnswer } from './har.js';
import { ELIDED } from './lenient-parse.js';

/** What differs: the status, a key, a value's JSON type, its format, or an enum value. */
export type DiffKind = 'status' | 'missing' | 'extra' | 'type' | 'format' | 'enum';

export interface Difference {
  /** `order.fee`, `orders[].amount`; `""` is the body itself, `status` the HTTP status. */
  path: string;
  kind: DiffKind;
  recorded: string;
  ours: string;
}

export interface Answer {
  status: number;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: unknown;
}

/** Keys whose values are an enumeration: the recorded value must be ours too. */
const ENUM_KEYS = new Set([
  'status',
  'delivery_status',
  'entry_type',
  'payer_contact_info_type',
  'outlet_category',
  'note_scope',
  'category',
]);
/** A currency code (`PHP`, `PBTC`) is an enumeration too, wherever it is named. */
const isEnumKey = (key: string) => ENUM_KEYS.has(key) || /(^|_)currency$/.test(key);
/** An enum value as the service writes it: `payment_received`, `PHP`, `PBTC` (not free text, ids or numbers). */
const ENUM_VALUE = /^[A-Za-z_]+$/;
const ID_LIKE =
  /(^id$|_id$|^id_|code$|number|address|^tx|nonce|phone|^invoice$|^account$|_account$|^receiver$|^owner|^payment$)/;
const TIME_KEY = /(time|_at|epoch|date|expires)/;

/** `string`, `number`, `boolean`, `null`, `object`, `array`. */
export function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/**
 * How a string value is written: `decimal(8 places)` (padded), `decimal(as entered)` (no trailing zero,
 * "5", "0.025"), `epoch seconds`, `ISO 8601`, or plain `string`.
 *
 * @example
 * formatOf('amount', '5')           // 'decimal(as entered)'
 * formatOf('amount', '5.00000000')  // 'decimal(8 places)'
 * formatOf('created_time', '1594617992') // 'epoch seconds'
 */
export function formatOf(key: string, v: string): string {
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v)) return 'ISO 8601';
  if (/^1\d{9}$/.test(v) && TIME_KEY.test(key)) return 'epoch seconds';
  if (ID_LIKE.test(key)) return 'string';
  // A number written with a leading zero or a plus (a phone number: "09171234567") is no decimal.
  if (/^(?:0\d+|\+\d+)$/.test(v)) return 'string';
  const m = /^-?\d+(?:\.(\d+))?$/.exec(v);
  if (!m) return 'string';
  const places = m[1]?.length ?? 0;
  return places > 0 && m[1]!.endsWith('0') ? `decimal(${places} places)` : 'decimal(as entered)';
}

/**
 * A recorded decimal whose last place happens not to be zero ("9911.31691110" is padded, "10008.48668473"
 * reads as entered) is written with as many places as ours when ours is padded to that many: the recorded
 * value is no evidence against the padding.
 */
function paddedAlike(recorded: string, ours: string): boolean {
  const places = /^-?\d+\.(\d+)$/.exec(recorded)?.[1]?.length;
  return places !== undefined && ours === `decimal(${places} places)`;
}

function describe(key: string, v: unknown): string {
  return typeof v === 'string'
    ? `${formatOf(key, v)} ${JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v)}`
    : typeOf(v);
}

/** `_typeAmbiguous` names fields (`note`, `expires_in_seconds (string or number)`): matched at any depth. */
const ambiguousAt = (w: Walk, path: string) =>
  [...w.ambiguous].some((a) => path === a || path.endsWith(`.${a}`));

const join = (base: string, key: string) => (base ? `${base}.${key}` : key);

interface Walk {
  extras: boolean;
  ambiguous: Set<string>;
  out: Difference[];
}

function walk(path: string, key: string, rec: unknown, ours: unknown, w: Walk): void {
  if (rec === ELIDED) return;
  const rt = typeOf(rec);
  const ot = typeOf(ours);
  if (rt !== ot) {
    if (
      ambiguousAt(w, path) &&
      ['null', 'string', 'number'].includes(rt) &&
      ['null', 'string', 'number'].includes(ot)
    )
      return;
    w.out.push({ path, kind: 'type', recorded: describe(key, rec), ours: describe(key, ours) });
    return;
  }
  if (rt === 'string') {
    const [rf, of] = [formatOf(key, rec as string), formatOf(key, ours as string)];
    if (rf !== of && !paddedAlike(rec as string, of))
      w.out.push({ path, kind: 'format', recorded: describe(key, rec), ours: describe(key, ours) });
    // In a list the first items are different records: its enum values are compared as a set (listEnums).
    else if (
      isEnumKey(key) &&
      !path.includes('[]') &&
      ENUM_VALUE.test(rec as string) &&
      rec !== ours
    ) {
      w.out.push({ path, kind: 'enum', recorded: JSON.stringify(rec), ours: JSON.stringify(ours) });
    }
    return;
  }
  if (rt === 'array') {
    const [ra, oa] = [rec as unknown[], ours as unknown[]];
    const first = ra.find((x) => x !== ELIDED);
    if (first === undefined) return;
    if (oa.length === 0) {
      w.out.push({
        path: `${path}[]`,
        kind: 'missing',
        recorded: `${ra.length} item(s)`,
        ours: 'empty array',
      });
      return;
    }
    walk(`${path}[]`, key, first, oa[0], w);
    return;
  }
  if (rt === 'object') {
    const [ro, oo] = [rec as Record<string, unknown>, ours as Record<string, unknown>];
    for (const k of Object.keys(ro)) {
      // A recording of a sandbox carries its sandbox_debug: the sandbox's help, not the real body.
      if (path === '' && k === 'sandbox_debug') continue;
      if (!(k in oo))
        w.out.push({
          path: join(path, k),
          kind: 'missing',
          recorded: describe(k, ro[k]),
          ours: 'absent',
        });
      else walk(join(path, k), k, ro[k], oo[k], w);
    }
    if (w.extras) {
      for (const k of Object.keys(oo)) {
        // sandbox_debug is the sandbox's own help beside the real body (removed by --no-debug-errors),
        // ignored on either side.
        if (k in ro || (path === '' && k === 'sandbox_debug')) continue;
        w.out.push({
          path: join(path, k),
          kind: 'extra',
          recorded: 'absent',
          ours: describe(k, oo[k]),
        });
      }
    }
  }
}

/**
 * The enums of a list's items compared as a set: a service's vocabulary (currency codes, categories). A
 * state (`status`, `entry_type`) is the state of one record, and the records differ: not compared there.
 */
const isListEnumKey = (key: string) => /(^|_)(currency|category)$/.test(key);

/** Every enum value inside a list, by path (`crypto-accounts[].currency` → {PHP, BTC}). */
function enumsInLists(
  path: string,
  key: string,
  v: unknown,
  out: Map<string, Set<string>>,
  inList = false,
): Map<string, Set<string>> {
  if (v === ELIDED) return out;
  if (Array.isArray(v)) {
    for (const x of v) enumsInLists(`${path}[]`, key, x, out, true);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) enumsInLists(join(path, k), k, x, out, inList);
  } else if (inList && typeof v === 'string' && isListEnumKey(key) && ENUM_VALUE.test(v)) {
    out.set(path, (out.get(path) ?? new Set()).add(v));
  }
  return out;
}

/**
 * The enum values of a list's items: the items are different records, in another order, so each value
 * recorded at a path must be among ours at that path (when ours has any there).
 */
function listEnums(base: string, rec: unknown, ours: unknown, out: Difference[]): void {
  const theirs = enumsInLists(base, '', rec, new Map());
  const mine = enumsInLists(base, '', ours, new Map());
  for (const [path, values] of theirs) {
    const have = mine.get(path);
    if (!have) continue;
    for (const v of values)
      if (!have.has(v))
        out.push({
          path,
          kind: 'enum',
          recorded: JSON.stringify(v),
          ours: [...have].map((x) => JSON.stringify(x)).join(' | '),
        });
  }
}

/** One CSV line's fields (double-quoted fields may hold commas and `""`). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/** A CSV body (a header row of column names, then rows), or undefined when the text is not one. */
function csvOf(text: string): { columns: string[]; rows: string[][] } | undefined {
  const [head, ...rows] = text.trim().split(/\r?\n/);
  if (!head || !/^[A-Za-z_][\w ]*(,[A-Za-z_][\w ]*)+$/.test(head)) return undefined;
  return { columns: head.split(','), rows: rows.filter((r) => r.trim()).map(csvFields) };
}

/**
 * A CSV answer (the balance statement) compared like JSON, not as text: its columns missing or extra,
 * and the format of each column's value in the first row (the rows are other records).
 */
function compareCsv(
  rec: { columns: string[]; rows: string[][] },
  ours: { columns: string[]; rows: string[][] } | undefined,
  out: Difference[],
): void {
  if (!ours) {
    out.push({
      path: '',
      kind: 'type',
      recorded: `CSV (${rec.columns.join(',')})`,
      ours: 'not CSV',
    });
    return;
  }
  for (const c of rec.columns)
    if (!ours.columns.includes(c))
      out.push({ path: `csv.${c}`, kind: 'missing', recorded: 'a column', ours: 'absent' });
  for (const c of ours.columns)
    if (!rec.columns.includes(c))
      out.push({ path: `csv.${c}`, kind: 'extra', recorded: 'absent', ours: 'a column' });
  const [r0, o0] = [rec.rows[0], ours.rows[0]];
  if (!r0) return;
  if (!o0) {
    out.push({
      path: 'csv[]',
      kind: 'missing',
      recorded: `${rec.rows.length} row(s)`,
      ours: 'none',
    });
    return;
  }
  rec.columns.forEach((c, i) => {
    const j = ours.columns.indexOf(c);
    const [rv, ov] = [r0[i], o0[j]];
    if (j < 0 || rv === undefined || ov === undefined) return;
    const [rf, of] = [formatOf(c, rv), formatOf(c, ov)];
    if (rf !== of && !paddedAlike(rv, of))
      out.push({
        path: `csv.${c}`,
        kind: 'format',
        recorded: describe(c, rv),
        ours: describe(c, ov),
      });
  });
}

/** The first object (depth first) holding every key of `keys`, with its path. */
function findHolder(
  v: unknown,
  keys: string[],
  path = '',
): { path: string; value: unknown } | undefined {
  if (typeOf(v) !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (keys.every((k) => k in o)) return { path, value: o };
  for (const [k, x] of Object.entries(o)) {
    const found = findHolder(x, keys, join(path, k));
    if (found) return found;
  }
  return undefined;
}

function containsText(v: unknown, text: string): boolean {
  if (typeof v === 'string') return v.includes(text);
  if (v && typeof v === 'object') return Object.values(v).some((x) => containsText(x, text));
  return false;
}

const looksLikeError = (body: unknown): boolean =>
  typeOf(body) === 'object' &&
  ('errors' in (body as object) || (body as { success?: unknown }).success === false);

/**
 * Compare our answer with the recorded one, structurally (docs/parity.md): the status when it was
 * recorded (otherwise its class, success or error, as the recorded body shows it); every key, missing or
 * extra, at every depth; each value's type and format; enum values. A truncated body reports no extra
 * key, a partial one is looked for anywhere in ours, and `_typeAmbiguous` paths accept string or null.
 */
export function compareAnswer(rec: RecordedAnswer, ours: Answer): Difference[] {
  const out: Difference[] = [];
  const body = rec.body;
  if (rec.status !== undefined && rec.status !== ours.status) {
    out.push({
      path: 'status',
      kind: 'status',
      recorded: String(rec.status),
      ours: String(ours.status),
    });
  } else if (rec.status === undefined && body.kind === 'json' && !body.partial) {
    const recError = looksLikeError(body.value);
    if (recError !== ours.status >= 400) {
      out.push({
        path: 'status',
        kind: 'status',
        recorded: recError ? 'unknown (an error body)' : 'unknown (a success body)',
        ours: String(ours.status),
      });
    }
  }
  if (body.kind === 'none') return out;
  if (body.kind === 'text') {
    const csv = csvOf(body.text);
    if (csv && !body.partial) {
      compareCsv(csv, typeof ours.body === 'string' ? csvOf(ours.body) : undefined, out);
      return out;
    }
    if (!containsText(ours.body, body.text))
      out.push({
        path: '',
        kind: 'missing',
        recorded: `the text ${JSON.stringify(body.text)}`,
        ours: 'not in the body',
      });
    return out;
  }
  const w: Walk = {
    extras: !body.truncated && !body.partial,
    ambiguous: new Set(rec.typeAmbiguous.map((a) => a.split(' ')[0]!)),
    out,
  };
  if (body.partial && typeOf(body.value) === 'object') {
    const keys = Object.keys(body.value as object);
    const holder = findHolder(ours.body, keys);
    if (!holder)
      out.push({
        path: '',
        kind: 'missing',
        recorded: `a fragment with ${keys.join(', ')}`,
        ours: 'not in the body',
      });
    else {
      walk(holder.path, holder.path.split('.').pop() ?? '', body.value, holder.value, w);
      listEnums(holder.path, body.value, holder.value, out);
    }
    return out;
  }
  // A client that printed only the list (`body['crypto-accounts']`): compared with our one list.
  if (Array.isArray(body.value) && typeOf(ours.body) === 'object') {
    const lists = Object.entries(ours.body as Record<string, unknown>).filter(([, v]) =>
      Array.isArray(v),
    );
    const [only] = lists;
    if (only && lists.length === 1) {
      const [key, list] = only;
      walk(key, key, body.value, list, w);
      listEnums(key, body.value, list, out);
      return out;
    }
  }
  walk('', '', body.value, ours.body, w);
  listEnums('', body.value, ours.body, out);
  return out;
}
