import { describe, expect, it } from 'vitest';
import { keepTypeImports, toJsKeepingImports } from '../../scripts/lint-deps-prepare.js';

/**
 * `npm run lint:deps` checks the layering of src/ (.dependency-cruiser.cjs) on JavaScript written by
 * scripts/lint-deps-prepare.ts. A type-only import couples modules too (a module naming another's row
 * type is as bound to its table as one that reads it), so that JavaScript must keep every import.
 */
describe('the JavaScript lint:deps reads', () => {
  it('keeps type-only imports and re-exports, in every spelling', () => {
    const source = [
      "import type { InvoiceRow } from '../invoices/invoices.repo.js';",
      "import { ok, type Handler } from '../http/operation.js';",
      "import type * as Repo from './a.repo.js';",
      "export type { Merchant } from './identities.api.js';",
      'export type Lookup = (host: string) => string;',
      'export function f(r: InvoiceRow, h: Handler, x: Repo.T): unknown { return [r, h, x, ok]; }',
    ].join('\n');
    const js = toJsKeepingImports(source);
    expect(js).toContain('from "../invoices/invoices.repo.js"');
    expect(js).toContain('from "../http/operation.js"');
    expect(js).toContain('from "./a.repo.js"');
    expect(js).toContain('from "./identities.api.js"');
    expect(js).not.toMatch(/Lookup/);
  });

  it('leaves a type alias or a string that merely says "import type" alone', () => {
    expect(keepTypeImports('export type A = string;')).toBe('export type A = string;');
    expect(keepTypeImports("const s = 'import type';")).toBe("const s = 'import type';");
  });

  it('drops nothing TypeScript would keep, and keeps an import only types use (TypeScript would drop it)', () => {
    const js = toJsKeepingImports("import { T } from './t.js';\nexport const n: T = 1;");
    expect(js).toContain('import { T } from "./t.js"');
  });
});
