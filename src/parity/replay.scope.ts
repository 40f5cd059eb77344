/**
 * Replay of a browser's devtools export: requests to other hosts (a CDN) and pages or static files are
 * not calls to the API, and are skipped saying so rather than replayed against the target.
 */
import type { Operation } from '../spec/load.js';
import type { HarEntry } from './har.js';

const NOT_API = /html|javascript|css|image\/|font\//i;

/**
 * The session's API origin is the recorded origin of most entries that name an operation; an entry that
 * names none is skipped when it went to another origin or answered a page or a static file.
 */
export function apiScope(
  entries: Array<{ entry: HarEntry; op: Operation | undefined }>,
): (entry: HarEntry, op: Operation | undefined) => string | undefined {
  const counts = new Map<string, number>();
  for (const { entry, op } of entries) {
    if (!op) continue;
    const origin = new URL(entry.request.url).origin;
    counts.set(origin, (counts.get(origin) ?? 0) + 1);
  }
  const api = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return (entry, op) => {
    if (op) return undefined;
    const origin = new URL(entry.request.url).origin;
    if (api && origin !== api)
      return `not a call to the API: another host (${origin}; the session's API is ${api})`;
    const type = entry.response.content.mimeType ?? '';
    if (NOT_API.test(type))
      return `not a call to the API: a page or static file (${type.split(';')[0]})`;
    return undefined;
  };
}
