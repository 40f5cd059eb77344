/**
 * Edit distance between two strings: insertions, deletions and substitutions, and with `swaps` also
 * swaps of neighbouring characters (the optimal string alignment distance). Used to suggest the
 * nearest flag, path or name to a mistyped one.
 */
export function editDistance(a: string, b: string, opts: { swaps?: boolean } = {}): number {
  const width = b.length + 1;
  const d = new Array<number>((a.length + 1) * width).fill(0);
  // Every index read below is inside the grid; `Infinity` only satisfies the index type.
  const at = (i: number, j: number): number => d[i * width + j] ?? Infinity;
  for (let i = 0; i <= a.length; i++) d[i * width] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (opts.swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * width + j] = v;
    }
  }
  return at(a.length, b.length);
}
