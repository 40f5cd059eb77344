/**
 * Path globs of injected faults, matched in time linear in the path: `*` matches within one segment,
 * `**` across segments. A backtracking regex (`[^/]*a[^/]*a…`) can take exponential time on a long
 * path, and the fault middleware runs every glob against every request, so one fault could freeze the
 * server. Here the glob is a tiny NFA simulated over the path: at most (pattern length + 1) states per
 * character, O(path × pattern) in the worst case, and the pattern is bounded (`MAX_GLOB_LENGTH`).
 */

/** Longest glob accepted, in characters. */
export const MAX_GLOB_LENGTH = 256;
/** Most wildcards (`*` or `**`, each counted once) in one glob. */
export const MAX_GLOB_WILDCARDS = 16;

const STAR = -1; // any characters but `/`
const GLOBSTAR = -2; // any characters

export interface PathGlob {
  test(path: string): boolean;
}

/** Why a glob is refused (too long, too many wildcards), or null. */
export function globProblem(glob: string): string | null {
  if (glob.length > MAX_GLOB_LENGTH) return `Ensure this glob has at most ${MAX_GLOB_LENGTH} characters.`;
  const wildcards = glob.match(/\*\*|\*/g)?.length ?? 0;
  if (wildcards > MAX_GLOB_WILDCARDS) return `Ensure this glob has at most ${MAX_GLOB_WILDCARDS} wildcards (* or **).`;
  return null;
}

/** Glob text → tokens: char codes for literals, STAR / GLOBSTAR for wildcards (runs merged: `***` = `**`). */
function tokenize(glob: string): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const code = glob.charCodeAt(i);
    if (code !== 42 /* * */) {
      out.push(code);
      continue;
    }
    let kind = STAR;
    if (glob.charCodeAt(i + 1) === 42) {
      kind = GLOBSTAR;
      i++;
    }
    const last = out.length ? out[out.length - 1]! : 0;
    if (last < 0) out[out.length - 1] = Math.min(last, kind); // a wildcard next to a wildcard: the wider one
    else out.push(kind);
  }
  return Int32Array.from(out);
}

export function compilePathGlob(glob: string): PathGlob {
  const tokens = tokenize(glob);
  const m = tokens.length;
  return {
    test(path: string): boolean {
      let cur = new Uint8Array(m + 1);
      let next = new Uint8Array(m + 1);
      // Enter state i, and the state after it when it is a wildcard (which may match nothing).
      // Wildcard runs are merged, so this follows at most one wildcard.
      const enter = (set: Uint8Array, i: number) => {
        set[i] = 1;
        if (i < m && tokens[i]! < 0) set[i + 1] = 1;
      };
      enter(cur, 0);
      for (let p = 0; p < path.length; p++) {
        const c = path.charCodeAt(p);
        next.fill(0);
        let alive = false;
        for (let i = 0; i < m; i++) {
          if (!cur[i]) continue;
          const t = tokens[i]!;
          if (t === GLOBSTAR || (t === STAR && c !== 47 /* / */)) {
            enter(next, i);
            alive = true;
          } else if (t === c) {
            enter(next, i + 1);
            alive = true;
          }
        }
        if (!alive) return false;
        [cur, next] = [next, cur];
      }
      return cur[m] === 1;
    },
  };
}
