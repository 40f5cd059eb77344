import { editDistance } from '../shared/edit-distance.js';
import { close, step, trimSlash, type Node } from './path-glob.js';

/**
 * Whether a fault's glob can match any path the sandbox serves (docs/faults.md#path-globs): a glob that
 * matches none is refused with the nearest paths, instead of sitting there with `hits: 0`.
 *
 * A served path is a route template (`/v3/invoices/:invoice_id`, `/payment/invoice/:id`): a parameter
 * is one non-empty segment. The glob and the template are intersected as two small automata (a
 * breadth-first walk over pairs of states), over the characters either names plus one that neither does.
 */

/** A route template → nodes: `:name` / `{name}` is one or more characters but `/`, `*` any characters. */
export function templateNodes(template: string): Node[] {
  const out: Node[] = [];
  for (const part of template.split(/(:[A-Za-z0-9_]+|\{[^{}]+\}|\*)/)) {
    if (!part) continue;
    if (part === '*') out.push({ kind: 'any' });
    else if (part.startsWith(':') || part.startsWith('{'))
      out.push({ kind: 'one' }, { kind: 'star' });
    else for (let i = 0; i < part.length; i++) out.push({ kind: 'lit', code: part.charCodeAt(i) });
  }
  return out;
}

const OTHER = 0x1f; // a character no glob or template of ours names

/** Whether some path is matched by both automata. */
export function intersects(a: readonly Node[], b: readonly Node[]): boolean {
  const symbols = new Set<number>([47, OTHER]);
  for (const n of [...a, ...b]) if (n.kind === 'lit') symbols.add(n.code);
  const width = b.length + 1;
  const seen = new Uint8Array((a.length + 1) * width);
  const queue: number[] = [];
  const push = (sa: Uint8Array, sb: Uint8Array) => {
    for (let i = 0; i <= a.length; i++) {
      if (!sa[i]) continue;
      for (let j = 0; j <= b.length; j++) {
        if (!sb[j] || seen[i * width + j]) continue;
        seen[i * width + j] = 1;
        queue.push(i * width + j);
      }
    }
  };
  const closed = (nodes: readonly Node[], i: number) => {
    const set = new Uint8Array(nodes.length + 1);
    close(nodes, set, i);
    return set;
  };
  push(closed(a, 0), closed(b, 0));
  for (let pair = queue.pop(); pair !== undefined; pair = queue.pop()) {
    const i = Math.floor(pair / width);
    const j = pair % width;
    if (i === a.length && j === b.length) return true;
    const na = a[i];
    const nb = b[j];
    if (!na || !nb) continue; // one side is at its end, the other not
    for (const c of symbols) {
      const ti = step(na, i, c);
      const tj = step(nb, j, c);
      if (ti >= 0 && tj >= 0) push(closed(a, ti), closed(b, tj));
    }
  }
  return false;
}

/** A route as a glob that matches it: each parameter `*` (`/v3/invoices/*`), what a fault would write. */
export const asGlob = (template: string) => template.replace(/:[A-Za-z0-9_]+|\{[^{}]+\}/g, '*');

/**
 * Why a glob written in another path spelling can never match a request, or null: a path parameter
 * as the documentation writes it (`{invoice_id}`, `:invoice_id`) is literal text no request path holds,
 * and a query or fragment is never part of the path a glob is tested on.
 */
export function spellingProblem(glob: string): string | null {
  // The glob has at most MAX_GLOB_LENGTH (256) characters, checked before (globProblem), which bounds
  // this expression's quadratic time on a run of `{` without a `}` (docs/design.md#input-handling).
  // eslint-disable-next-line regexp/no-super-linear-move -- input capped at 256 characters before
  const param = /\{[^}]*\}|(?<=\/):[A-Za-z_][A-Za-z0-9_]*/g;
  const named = glob.match(param);
  if (named) {
    const fixed = glob.replace(param, '*');
    return `\`${named[0]}\` is the documentation's name of a path parameter, and no request path contains it: write \`*\` for a path parameter (\`${fixed}\`).`;
  }
  const cut = glob.search(/[?#]/);
  if (cut >= 0) {
    const what = glob[cut] === '?' ? 'a query string (`?…`)' : 'a fragment (`#…`)';
    return `A glob matches the request path only, never ${what}: remove it (\`${glob.slice(0, cut) || '/'}\`).`;
  }
  return null;
}

/** Whether the glob (as nodes) matches some served path; the trailing slash is optional on both sides. */
export function matchesSomePath(glob: readonly Node[], templates: readonly string[]): boolean {
  return templates.some((t) => {
    const nodes = templateNodes(trimSlash(t));
    return intersects(glob, nodes) || intersects(glob, [...nodes, { kind: 'lit', code: 47 }]);
  });
}

/** The `count` served paths nearest to the glob text (edit distance), as globs that match them. */
export function nearestPaths(glob: string, templates: readonly string[], count = 3): string[] {
  const unique = [...new Set(templates.map((t) => asGlob(trimSlash(t))))];
  return unique
    .map((p) => ({ p, d: editDistance(glob, p) }))
    .sort((x, y) => x.d - y.d || x.p.localeCompare(y.p))
    .slice(0, count)
    .map((x) => x.p);
}
