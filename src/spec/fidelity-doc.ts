import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { oas31 } from 'openapi3-ts';
import { packageRoot } from './load.js';
import { readDocument } from './operation-types.js';

/**
 * docs/fidelity.md section 1 (one row per operation: what it does, where that comes from) is generated
 * from the `x-fidelity` of each operation of openapi/openapi.yaml (`npm run gen:docs`), between two
 * markers, so that the rest of the page stays hand-written. An operation's note lives beside it in the
 * document: adding an operation means the document, its handler and its test.
 *
 * `x-fidelity: { summary, source, deviations? }`: `summary` says what the operation does, `source` where
 * each part of that comes from (observed, documented, seed or sandbox's choice); `deviations` lists what
 * the sandbox knowingly does differently.
 */

type Doc = oas31.OpenAPIObject;

export interface Fidelity {
  summary: string;
  source: string;
  deviations?: unknown[];
}

export interface FidelityEntry {
  operationId: string;
  /** `` `POST /v1/invoices/` ``, or for a webhook `` `POST <callback_url>` (`invoice.created`) ``. */
  where: string;
  tag: string;
  fidelity: unknown;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export const SOURCES = /\b(observed|documented|seed|sandbox's choice)\b/;
const KEYS = new Set(['summary', 'source', 'deviations']);
export const BEGIN =
  '<!-- BEGIN generated: npm run gen:docs writes this part from the x-fidelity of openapi/openapi.yaml; do not edit -->';
export const END = '<!-- END generated -->';
export const FIDELITY_DOC = join(packageRoot(), 'docs', 'fidelity.md');

/** Every operation of the document (paths, then webhooks) with its `x-fidelity`, in document order. */
export function fidelityEntries(doc: Doc): FidelityEntry[] {
  const entries: FidelityEntry[] = [];
  const add = (
    items: Record<string, oas31.PathItemObject> | undefined,
    where: (method: string, key: string) => string,
  ) => {
    for (const [key, item] of Object.entries(items ?? {})) {
      for (const method of METHODS) {
        const op = item?.[method];
        if (!op?.operationId) continue;
        entries.push({
          operationId: op.operationId,
          where: where(method, key),
          tag: op.tags?.[0] ?? '',
          fidelity: op['x-fidelity'],
        });
      }
    }
  };
  add(doc.paths, (method, path) => `\`${method.toUpperCase()} ${path}\``);
  add(doc.webhooks, (method, event) => `\`${method.toUpperCase()} <callback_url>\` (\`${event}\`)`);
  return entries;
}

/** What is wrong with the operations' `x-fidelity`; empty when every operation has a valid one. */
export function fidelityProblems(doc: Doc): string[] {
  const problems: string[] = [];
  for (const { operationId: id, fidelity: f } of fidelityEntries(doc)) {
    if (!f || typeof f !== 'object' || Array.isArray(f)) {
      problems.push(`\`${id}\` has no x-fidelity: { summary, source }`);
      continue;
    }
    const note = f as Record<string, unknown>;
    for (const k of Object.keys(note))
      if (!KEYS.has(k)) problems.push(`\`${id}\`: x-fidelity has an unknown key "${k}"`);
    if (typeof note.summary !== 'string' || !note.summary.trim())
      problems.push(`\`${id}\`: x-fidelity.summary must be text`);
    if (typeof note.source !== 'string' || !SOURCES.test(note.source)) {
      problems.push(
        `\`${id}\`: x-fidelity.source names no source (observed, documented, seed or sandbox's choice)`,
      );
    }
    if (note.deviations !== undefined && !Array.isArray(note.deviations)) {
      problems.push(`\`${id}\`: x-fidelity.deviations must be a list`);
    }
  }
  return problems;
}

const cell = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');

/** The generated part: one table per tag (in the order of the document's `tags`), one row per operation. */
export function operationsTables(doc: Doc): string {
  const problems = fidelityProblems(doc);
  if (problems.length) throw new Error(`openapi/openapi.yaml:\n${problems.join('\n')}`);
  const entries = fidelityEntries(doc);
  const tags: Array<{ name: string; description?: string }> = doc.tags ?? [];
  const order = [...tags.map((t) => t.name), ...new Set(entries.map((e) => e.tag))];
  const out: string[] = [];
  for (const name of new Set(order)) {
    const rows = entries.filter((e) => e.tag === name);
    if (!rows.length) continue;
    const description = tags.find((t) => t.name === name)?.description;
    out.push(`### ${name || '(untagged)'}`, '');
    if (description) out.push(cell(description).replace(/\\\|/g, '|'), '');
    out.push('| operationId | Method and path | What it does | Source |', '|---|---|---|---|');
    for (const e of rows) {
      const f = e.fidelity as Fidelity;
      out.push(`| \`${e.operationId}\` | ${e.where} | ${cell(f.summary)} | ${cell(f.source)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** The page with its generated part rewritten from the document; the markers must be there. */
export function withGeneratedOperations(markdown: string, doc: Doc): string {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(`docs/fidelity.md must hold the markers\n${BEGIN}\n${END}`);
  return `${markdown.slice(0, start + BEGIN.length)}\n\n${operationsTables(doc)}\n${markdown.slice(end)}`;
}

// `npm run gen:docs`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = readFileSync(FIDELITY_DOC, 'utf8');
  const after = withGeneratedOperations(before, readDocument());
  writeFileSync(FIDELITY_DOC, after);
  console.log(after === before ? 'docs/fidelity.md is up to date' : 'wrote docs/fidelity.md');
}
