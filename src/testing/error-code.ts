/**
 * The sandbox's machine code of an error body, wherever the body's surface puts it: merchant and
 * developer errors carry the real service's body (with `error_codes` empty or absent) and the
 * sandbox's own code in `sandbox_debug.code`; control errors carry it in `error_codes`.
 */
export function errorCode(body: unknown): string | undefined {
  const b = body as { sandbox_debug?: { code?: unknown }; error_codes?: unknown } | null | undefined;
  const debug = b?.sandbox_debug?.code;
  if (typeof debug === 'string') return debug;
  const codes = b?.error_codes;
  return Array.isArray(codes) && typeof codes[0] === 'string' ? codes[0] : undefined;
}
