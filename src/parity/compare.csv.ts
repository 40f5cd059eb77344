/** A CSV answer (the balance statement) read into columns and rows, and compared like a JSON one. */
import { describe, formatOf, paddedAlike } from './compare.format.js';
import type { Difference } from './compare.types.js';

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
export function csvOf(text: string): { columns: string[]; rows: string[][] } | undefined {
  const [head, ...rows] = text.trim().split(/\r?\n/);
  if (!head || !/^[A-Za-z_][\w ]*(,[A-Za-z_][\w ]*)+$/.test(head)) return undefined;
  return { columns: head.split(','), rows: rows.filter((r) => r.trim()).map(csvFields) };
}

/**
 * A CSV answer (the balance statement) compared like JSON, not as text: its columns missing or extra,
 * and the format of each column's value in the first row (the rows are other records).
 */
export function compareCsv(
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
