/**
 * The sandbox's machine code of an error body, wherever the body puts it: `sandbox_debug.code` where
 * the real body names none (developer errors; merchant `Invalid token.`, `Not found.`, the amount
 * maximum), `error_codes` otherwise.
 */
export function errorCode(body: unknown): string | undefined {
  const b = body as
    { sandbox_debug?: { code?: unknown }; error_codes?: unknown } | null | undefined;
  const debug = b?.sandbox_debug?.code;
  if (typeof debug === 'string') return debug;
  const codes = b?.error_codes;
  return Array.isArray(codes) && typeof codes[0] === 'string' ? codes[0] : undefined;
}

type Errors = Record<string, string[]>;

/** The body of a developer-API error (HMAC / OAuth2 operations): the real `{"errors"}` and the sandbox code. */
export function developerError(code: string, errors: Errors) {
  return { errors, sandbox_debug: { code } };
}

/** The body of a merchant-API error whose real `error_codes` is empty (`Invalid token.`, `Not found.`, the amount maximum). */
export function merchantError(code: string, errors: Errors) {
  return { error_codes: [], errors, sandbox_debug: { code } };
}

/** The body of a control-API error (`/_sandbox`): always the envelope, with the code in `error_codes`. */
export function controlError(code: string, errors: Errors) {
  return { error_codes: [code], errors };
}

/** The real 2FA failure body (422), with the sandbox code beside it. */
export const OTP_INVALID = {
  errors: { code: 'Two-factor code invalid!' },
  success: false,
  sandbox_debug: { code: 'two_factor_invalid' },
};
