/**
 * Response bodies whose JSON text is already known (a list page kept by its module, see
 * src/invoices/invoice-pages.cache.ts): the operation runner sends that text instead of serializing
 * the body again. The text must be exactly `JSON.stringify(body)`; the body stays the typed value
 * the handler returns (its shape is checked against the document like any other).
 */
const texts = new WeakMap<object, string>();

/** `body`, marked as serializing to `json` (which the caller made with `JSON.stringify(body)`). */
export function withJsonText<T extends object>(body: T, json: string): T {
  texts.set(body, json);
  return body;
}

/** The JSON text recorded for `body`, if any. */
export function jsonTextOf(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null ? texts.get(body) : undefined;
}
