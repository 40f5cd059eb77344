import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec, METHODS, packageRoot, type LoadedSpec } from './load.js';

/**
 * docs/fidelity.md promises one row per operation of openapi/openapi.yaml, each naming its source.
 * These checks keep that promise when operations are added, renamed or moved.
 */

const SOURCES = /\b(observed|documented|seed|sandbox's choice)\b/;
const OPERATIONS_SECTION = /^## 1\. /;

interface Row {
  operationId: string;
  methodAndPath: string;
  source: string;
  line: number;
}

interface ExpectedOperation {
  operationId: string;
  /** `` `POST /v1/invoices/` `` for paths; the method alone for webhooks (they have no path of ours). */
  mustContain: string;
}

/** Cells of a Markdown table row; `\|` inside a cell is not a separator. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** The rows of the operations tables (section 1), and what is wrong with any that is not a row of one. */
function operationRows(markdown: string): { rows: Row[]; problems: string[] } {
  const rows: Row[] = [];
  const problems: string[] = [];
  let inSection = false;
  markdown.split('\n').forEach((text, i) => {
    if (text.startsWith('## ')) inSection = OPERATIONS_SECTION.test(text);
    if (!inSection || !text.trimStart().startsWith('|')) return;
    const [first = '', second = '', , fourth = ''] = cells(text);
    if (first === 'operationId' || /^:?-+:?$/.test(first)) return; // header and separator
    const id = /^`([A-Za-z][A-Za-z0-9]*)`$/.exec(first);
    if (!id) {
      problems.push(`line ${i + 1}: the first cell must be an operationId in backticks, got "${first}"`);
      return;
    }
    rows.push({ operationId: id[1]!, methodAndPath: second, source: fourth, line: i + 1 });
  });
  return { rows, problems };
}

/** Every operation of the document: paths, and webhooks that carry an operationId. */
function expectedOperations(spec: LoadedSpec): ExpectedOperation[] {
  const ops = spec.operations.map((o) => ({ operationId: o.operationId, mustContain: `\`${o.method.toUpperCase()} ${o.path}\`` }));
  const webhooks = (spec.document.webhooks ?? {}) as Record<string, Record<string, { operationId?: string } | undefined>>;
  for (const item of Object.values(webhooks)) {
    for (const method of METHODS) {
      const id = item[method]?.operationId;
      if (id) ops.push({ operationId: id, mustContain: method.toUpperCase() });
    }
  }
  return ops;
}

/** Everything that makes the table disagree with the document; empty when they agree. */
function fidelityProblems(spec: LoadedSpec, markdown: string): string[] {
  const { rows, problems } = operationRows(markdown);
  const expected = new Map(expectedOperations(spec).map((o) => [o.operationId, o]));
  const seen = new Map<string, Row>();
  for (const row of rows) {
    const before = seen.get(row.operationId);
    if (before) problems.push(`\`${row.operationId}\` has two rows (lines ${before.line} and ${row.line})`);
    seen.set(row.operationId, row);
    const op = expected.get(row.operationId);
    if (!op) {
      problems.push(`line ${row.line}: \`${row.operationId}\` is not an operation of openapi/openapi.yaml (renamed or removed?)`);
      continue;
    }
    if (!row.methodAndPath.includes(op.mustContain)) {
      problems.push(`line ${row.line}: the row of \`${row.operationId}\` must name ${op.mustContain}, has "${row.methodAndPath}"`);
    }
    if (!SOURCES.test(row.source)) {
      problems.push(`line ${row.line}: the row of \`${row.operationId}\` names no source (observed, documented, seed or sandbox's choice)`);
    }
  }
  for (const id of expected.keys()) {
    if (!seen.has(id)) problems.push(`\`${id}\` has no row in docs/fidelity.md section 1`);
  }
  return problems;
}

const spec = loadSpec();
const doc = readFileSync(join(packageRoot(), 'docs', 'fidelity.md'), 'utf8');

/**
 * What an edit of the document adds to its problems: the checks below prove that each kind of drift is
 * caught, and fail only in the first test (not in all of them) when the document itself has drifted.
 */
function newProblems(edited: string): string[] {
  const before = new Set(fidelityProblems(spec, doc));
  return fidelityProblems(spec, edited).filter((p) => !before.has(p));
}

describe('docs/fidelity.md', () => {
  it('has exactly one row, with its method, path and source, for every operation of openapi/openapi.yaml', () => {
    expect(fidelityProblems(spec, doc)).toEqual([]);
    expect(operationRows(doc).rows).toHaveLength(expectedOperations(spec).length);
  });

  it('reports an operation whose row was deleted', () => {
    const victim = spec.operations.find((o) => o.operationId === 'createTransfer')!;
    const without = doc
      .split('\n')
      .filter((l) => !l.startsWith(`| \`${victim.operationId}\``))
      .join('\n');
    expect(without).not.toEqual(doc);
    expect(newProblems(without)).toEqual(['`createTransfer` has no row in docs/fidelity.md section 1']);
  });

  it('reports a row of an operation the document no longer has, and a duplicate', () => {
    const extra = doc.replace(
      /^(\| `getHealth` .*)$/m,
      "$1\n| `getRootIndex` | `GET /` | An index. | sandbox's choice |\n$1",
    );
    expect(newProblems(extra)).toEqual([
      expect.stringMatching(/`getRootIndex` is not an operation of openapi\/openapi.yaml/),
      expect.stringMatching(/`getHealth` has two rows/),
    ]);
  });

  it('reports a row whose path or source no longer fits', () => {
    const moved = doc.replace('| `getHealth` | `GET /healthz` |', '| `getHealth` | `GET /health` |');
    expect(newProblems(moved)).toEqual([
      expect.stringMatching(/the row of `getHealth` must name `GET \/healthz`/),
    ]);
    const unsourced = doc.replace(/^(\| `getHealth` \|.*\|.*\|).*\|$/m, '$1 trust me |');
    expect(newProblems(unsourced)).toEqual([expect.stringMatching(/`getHealth` names no source/)]);
  });

  it('reports a row in section 1 whose first cell is not an operationId', () => {
    const odd = doc.replace('| `getHealth` |', '| getHealth |');
    expect(newProblems(odd)).toEqual([
      expect.stringMatching(/first cell must be an operationId in backticks, got "getHealth"/),
      '`getHealth` has no row in docs/fidelity.md section 1',
    ]);
  });
});
