/** `Content-Type: application/x-www-form-urlencoded` (any parameters after it, any case). */
export function isFormBody(contentType: string | undefined): boolean {
  return (
    contentType !== undefined && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)
  );
}

/**
 * A form-encoded developer-API body as the same fields a JSON body gives (the official OAuth example
 * posts a dict with Python requests' `data=`). Values stay text, which every amount and string field
 * takes; a field the document types `integer`, `number` or `boolean` becomes one when its text is one,
 * and otherwise stays text for the document's check to refuse with the usual 400. A repeated name keeps
 * its last value, as with a JSON object.
 */
export function parseFormBody(
  text: string,
  types: Record<string, string>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (name === '__proto__') continue;
    body[name] = typed(value, types[name]);
  }
  return body;
}

function typed(value: string, type: string | undefined): unknown {
  if (
    (type === 'integer' && /^-?\d{1,15}$/.test(value)) ||
    (type === 'number' && /^-?\d+(\.\d+)?$/.test(value))
  )
    return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * A JSON number sent where the document types a top-level field `string` becomes its text, as the real
 * service's Django REST framework `CharField` does (`"bank_account_number": 123456789` → `"123456789"`,
 * a 2FA `"code": 189772` → `"189772"`): the number is written as the client wrote it when the parser
 * kept that text (`sourceOf`), else as JavaScript prints it. Booleans, objects and arrays stay as they
 * are, for the document's check to refuse (`CharField` refuses them too).
 */
export function coerceCharFields(
  body: unknown,
  types: Record<string, string>,
  sourceOf: (parent: object, key: string) => string | undefined,
): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const fields = body as Record<string, unknown>;
  for (const [name, value] of Object.entries(fields)) {
    if (types[name] === 'string' && typeof value === 'number' && Number.isFinite(value))
      fields[name] = sourceOf(fields, name) ?? String(value);
  }
}
