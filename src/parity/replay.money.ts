/**
 * Replay without the money opt-in: an entry that would move money on the target is not sent, and
 * neither is a later one that names what it made (its id), since that does not exist on the target.
 */
import type { Operation } from '../spec/load.js';
import { requestText, responseText, type HarEntry } from './har.js';
import { parseLenient } from './lenient-parse.js';

/** The ids a recorded answer made (`id`, `…_id` strings), at any depth. */
function madeIds(value: unknown, out: Set<string>): void {
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (/^(id|.+_id)$/.test(k) && typeof v === 'string' && v.length >= 6) out.add(v);
    else madeIds(v, out);
  }
}

/**
 * Why an entry is skipped: its operation is one of `operations` (it moves money), or it names an id
 * such an entry made. `reason` says how to opt in.
 */
export function moneyGuard(
  operations: ReadonlySet<string>,
  reason: string,
): (entry: HarEntry, op: Operation | undefined) => string | undefined {
  const skipped = new Map<string, string>(); // a skipped entry's id → its method and path
  return (entry, op) => {
    const { method, url } = entry.request;
    const path = new URL(url.replace(/[{}]/g, '')).pathname;
    if (op && operations.has(op.operationId)) {
      const parsed = parseLenient(responseText(entry));
      const ids = new Set<string>();
      if (parsed.ok) madeIds(parsed.value, ids);
      for (const id of ids) skipped.set(id, `${method} ${path}`);
      return `${op.operationId} ${reason}`;
    }
    const sent = `${url} ${requestText(entry) ?? ''}`;
    for (const [id, by] of skipped)
      if (sent.includes(id)) return `names ${id}, made by ${by}, which was skipped: ${reason}`;
    return undefined;
  };
}
