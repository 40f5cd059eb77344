import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { GENERATED_TYPES_FILE, operationTypesCode, readDocument } from './operation-types.js';

it('keeps src/spec/operations.generated.ts in step with the document (npm run gen:types rewrites it)', () => {
  expect(readFileSync(GENERATED_TYPES_FILE, 'utf8')).toBe(operationTypesCode(readDocument()));
});

it('types every operation of the document, with its path parameters required', () => {
  const code = operationTypesCode(readDocument());
  const doc = readDocument();
  const ids = Object.values(
    doc.paths as Record<string, Record<string, { operationId?: string }>>,
  ).flatMap((item) =>
    Object.values(item).flatMap((op) =>
      op && typeof op === 'object' && op.operationId ? [op.operationId] : [],
    ),
  );
  for (const id of ids) expect(code, id).toContain(`  ${id}: {`);
  expect(code).toMatch(
    /getInvoiceV1: \{\n {4}auth: "merchant-or-public";\n {4}params: \{\n {6}invoice_id: string;/,
  );
});

it('names the caller of every operation from its security (the principal its handler receives)', () => {
  const code = operationTypesCode(readDocument());
  const authOf = (id: string) =>
    new RegExp(`  ${id}: \\{\\n {4}auth: "([a-z-]+)";`).exec(code)?.[1];
  expect(authOf('createInvoiceV1')).toBe('merchant');
  expect(authOf('createTransfer')).toBe('hmac');
  expect(authOf('clearFaults')).toBe('control');
  expect(authOf('getHealth')).toBe('none');
});
