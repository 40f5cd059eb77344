/**
 * A JSON body compared with the recorded one, key by key at every depth (types, formats, enums), and
 * the enum values of its lists compared as sets.
 */
import { ELIDED } from './lenient-parse.js';
import {
  describe,
  ENUM_VALUE,
  formatOf,
  isEnumKey,
  paddedAlike,
  typeOf,
} from './compare.format.js';
import type { Difference } from './compare.types.js';

/** `_typeAmbiguous` names fields (`note`, `expires_in_seconds (string or number)`): matched at any depth. */
const ambiguousAt = (w: Walk, path: string) =>
  [...w.ambiguous].some((a) => path === a || path.endsWith(`.${a}`));

export const join = (base: string, key: string) => (base ? `${base}.${key}` : key);

export interface Walk {
  extras: boolean;
  ambiguous: Set<string>;
  out: Difference[];
}

export function walk(path: string, key: string, rec: unknown, ours: unknown, w: Walk): void {
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
export function listEnums(base: string, rec: unknown, ours: unknown, out: Difference[]): void {
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
