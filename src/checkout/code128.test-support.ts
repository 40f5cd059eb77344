/**
 * Test support: read a Code 128 barcode back from the bars of an SVG, independently of the library
 * that drew it (ISO/IEC 15417 symbol table, checksum verified). Imported by *.test.ts only.
 */

// Bar/space widths of symbol values 0..105 (106 = stop, 7 elements).
const PATTERNS = (
  '212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 122231 113222 ' +
  '123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 212123 212321 ' +
  '232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 ' +
  '313121 211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 ' +
  '111422 121124 121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 ' +
  '111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 ' +
  '114311 411113 411311 113141 114131 311141 411131 211412 211214 211232'
).split(' ');
const STOP = '2331112';
const START = { 103: 'A', 104: 'B', 105: 'C' } as Record<number, 'A' | 'B' | 'C'>;

/** Module widths (bar, space, bar, …) of the vertical bars an SVG draws as stroked line segments. */
export function barWidths(svg: string): number[] {
  const bars: Array<[number, number]> = [];
  for (const m of svg.matchAll(/<path[^>]*stroke-width="([\d.]+)"[^>]*\sd="([^"]+)"/g)) {
    const w = Number(m[1]);
    for (const seg of m[2]!.matchAll(/M([\d.]+) [\d.]+L([\d.]+) [\d.]+/g)) {
      const x = Number(seg[1]);
      if (x !== Number(seg[2])) throw new Error('not a vertical bar');
      bars.push([x - w / 2, x + w / 2]);
    }
  }
  bars.sort((a, b) => a[0] - b[0]);
  const runs: number[] = [];
  bars.forEach(([left, right], i) => {
    runs.push(right - left);
    const next = bars[i + 1];
    if (next) runs.push(next[0] - right);
  });
  const module = Math.min(...runs);
  return runs.map((r) => Math.round(r / module));
}

/** Decode the data of a Code 128 symbol from its module widths; throws on a bad checksum or symbol. */
export function decodeCode128(widths: number[]): string {
  if (widths.slice(-7).join('') !== STOP) throw new Error('no stop pattern');
  const values: number[] = [];
  for (let i = 0; i < widths.length - 7; i += 6) {
    const v = PATTERNS.indexOf(widths.slice(i, i + 6).join(''));
    if (v < 0) throw new Error(`unknown symbol at element ${i}`);
    values.push(v);
  }
  const [start, ...rest] = values;
  const check = rest.pop()!;
  const sum = rest.reduce((s, v, i) => s + v * (i + 1), start!);
  if (sum % 103 !== check) throw new Error(`checksum ${sum % 103} does not match ${check}`);
  let set = START[start!];
  if (!set) throw new Error('no start symbol');
  let out = '';
  for (const v of rest) {
    if (set === 'C') {
      if (v < 100) out += String(v).padStart(2, '0');
      else if (v === 100) set = 'B';
      else if (v === 101) set = 'A';
    } else if (v < 96) {
      out += String.fromCharCode(set === 'B' || v < 64 ? v + 32 : v - 64);
    } else if (v === 99) set = 'C';
    else if (v === 100 && set === 'A') set = 'B';
    else if (v === 101 && set === 'B') set = 'A';
    else throw new Error(`unsupported function symbol ${v}`);
  }
  return out;
}
