/**
 * Path globs of injected faults, with the semantics users know from picomatch and .gitignore
 * (docs/faults.md):
 *
 * - `*` matches any characters within one segment (never `/`), including none;
 * - `**` as a whole segment matches zero or more segments: `/v3/**` matches `/v3`, `/v3/invoices` and
 *   `/v3/invoices/x/y`; `/v3/**\/x` matches `/v3/x` and `/v3/a/b/x`. Inside a segment (`/v3/inv**`) it
 *   is a plain `*`;
 * - a trailing slash is optional on both sides, and a last `/*` also matches the path without it
 *   (`/v3/invoices/*` matches `/v3/invoices/`, which is `/v3/invoices`);
 * - everything else is literal.
 *
 * Matched in time linear in the path: a backtracking regex (`[^/]*a[^/]*a…`) can take exponential time on
 * a long path, and the fault middleware runs every glob against every request. The glob is compiled to
 * a tiny NFA simulated over the path: at most (pattern length + 2) states per character, and the
 * pattern is bounded (`MAX_GLOB_LENGTH`).
 */
import { trimEnd } from '../shared/trim.js';

/** Longest glob accepted, in characters. */
export const MAX_GLOB_LENGTH = 256;
/** Most wildcards (`*` or `**`, each counted once) in one glob. */
export const MAX_GLOB_WILDCARDS = 16;

/** One NFA node: a literal character, a loop (`*`, `**`), one non-slash character, or an optional skip. */
export type Node =
  | { kind: 'lit'; code: number }
  | { kind: 'star' } // any characters but `/`, then on
  | { kind: 'any' } // any characters, then on
  | { kind: 'one' } // exactly one character but `/`
  | { kind: 'skip'; to: number }; // also go to `to` without reading

export interface PathGlob {
  test(path: string): boolean;
  /** The compiled nodes (for the intersection with the document's paths, faults.paths.ts). */
  readonly nodes: readonly Node[];
}

/** Why a glob is refused (too long, too many wildcards), or null. */
export function globProblem(glob: string): string | null {
  if (glob.length > MAX_GLOB_LENGTH)
    return `Ensure this glob has at most ${MAX_GLOB_LENGTH} characters.`;
  const wildcards = glob.match(/\*\*|\*/g)?.length ?? 0;
  if (wildcards > MAX_GLOB_WILDCARDS)
    return `Ensure this glob has at most ${MAX_GLOB_WILDCARDS} wildcards (* or **).`;
  return null;
}

export const trimSlash = (p: string) => (p.length > 1 ? trimEnd(p, '/') : p);

/** Glob text (trailing slash already trimmed) → NFA nodes. */
export function globNodes(glob: string): Node[] {
  const out: Node[] = [];
  let i = 0;
  while (i < glob.length) {
    const code = glob.charCodeAt(i);
    if (code !== 42 /* * */) {
      // `/**` as a whole segment (followed by `/` or the end): zero or more segments, `(/.*)?`.
      if (code === 47 && glob.startsWith('**', i + 1) && /^\/\*+(\/|$)/.test(glob.slice(i))) {
        let end = i + 1;
        while (glob.charCodeAt(end) === 42) end++;
        const at = out.length;
        out.push({ kind: 'skip', to: at + 3 }, { kind: 'lit', code: 47 }, { kind: 'any' });
        i = end;
        continue;
      }
      out.push({ kind: 'lit', code });
      i++;
      continue;
    }
    let end = i;
    while (glob.charCodeAt(end) === 42) end++;
    // A leading `**/` or a glob that is only `**`: any characters. Elsewhere a run of stars is one `*`.
    const wholeSegment =
      end - i >= 2 && i === 0 && (end === glob.length || glob.charCodeAt(end) === 47);
    const last = out[out.length - 1];
    if (!(last && (last.kind === 'star' || last.kind === 'any')))
      out.push({ kind: wholeSegment ? 'any' : 'star' });
    i = end;
  }
  return out;
}

/** The states reachable from `i` without reading (the nodes that loop or skip also lead on). */
export function close(nodes: readonly Node[], set: Uint8Array, i: number): void {
  while (i <= nodes.length && !set[i]) {
    set[i] = 1;
    const n = nodes[i];
    if (!n) return;
    if (n.kind === 'skip') close(nodes, set, n.to);
    else if (n.kind !== 'star' && n.kind !== 'any') return;
    i++;
  }
}

/** Where node `i` goes on character `c`, or -1. Loops stay on themselves. */
export function step(n: Node, i: number, c: number): number {
  switch (n.kind) {
    case 'lit':
      return n.code === c ? i + 1 : -1;
    case 'star':
      return c === 47 ? -1 : i;
    case 'any':
      return i;
    case 'one':
      return c === 47 ? -1 : i + 1;
    default:
      return -1;
  }
}

function run(nodes: readonly Node[], path: string): boolean {
  const m = nodes.length;
  let cur = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  close(nodes, cur, 0);
  for (let p = 0; p < path.length; p++) {
    const c = path.charCodeAt(p);
    next.fill(0);
    let alive = false;
    for (let i = 0; i < m; i++) {
      if (!cur[i]) continue;
      const to = step(nodes[i]!, i, c);
      if (to < 0) continue;
      close(nodes, next, to);
      alive = true;
    }
    if (!alive) return false;
    [cur, next] = [next, cur];
  }
  return cur[m] === 1;
}

/** A glob as written (trailing slashes ignored) → its matcher over request paths (also trimmed). */
export function compilePathGlob(glob: string): PathGlob {
  const nodes = globNodes(trimSlash(glob));
  return {
    nodes,
    test(path: string): boolean {
      const clean = trimSlash(path);
      // The trailing slash is optional: `/v3/invoices/*` matches `/v3/invoices/`.
      return run(nodes, clean) || (clean !== '/' && run(nodes, clean + '/'));
    },
  };
}
