import type { RecordedAnswer } from './har.js';
import { compareCsv, csvOf } from './compare.csv.js';
import { typeOf } from './compare.format.js';
import type { Answer, Difference } from './compare.types.js';
import { join, listEnums, walk, type Walk } from './compare.walk.js';

export type { Answer, DiffKind, Difference } from './compare.types.js';
export { formatOf, typeOf } from './compare.format.js';

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
    ambiguous: new Set(rec.typeAmbiguous.map((a) => a.split(' ')[0] ?? a)),
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
