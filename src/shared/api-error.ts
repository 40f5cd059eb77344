/**
 * The one error family. Services throw an ApiError; `renderError` (src/http/render-error.ts) is the one
 * place that turns it into a response, with the status of its code from `STATUS_OF` and nowhere else, and the body the real
 * service gives on that surface (docs/design.md#wire-conventions):
 * - merchant API (invoices, and any path the sandbox does not know): `{"error_codes": [...], "errors": {...}}`,
 *   with `"error_codes": []` for the errors whose real body is known to carry none (`Invalid token.`,
 *   `Not found.`, the amount maximum) and the sandbox's code there for every other;
 * - developer API (HMAC / OAuth2): `{"errors": {...}}`, no `error_codes`;
 * - control API (`/_sandbox`, the sandbox's own): `{"error_codes": [code], "errors": {...}}`.
 * Where the real body names no code, the sandbox's own goes in `sandbox_debug.code` (which
 * `--no-debug-errors` removes).
 */
export type ErrorCode =
  | 'invalid_token'
  | 'missing_credentials'
  | 'invalid_access_key'
  | 'invalid_signature'
  | 'invalid_nonce'
  | 'invalid_nonce_format'
  | 'control_token_required'
  | 'host_not_allowed'
  | 'origin_not_allowed'
  | 'callback_of_other_workspace'
  | 'json_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'malformed_json'
  | 'payload_too_large'
  | 'validation_error'
  | 'amount_above_maximum'
  | 'duplicate_external_transaction_id'
  | 'insufficient_balance'
  | 'unknown_target'
  | 'amount_outside_fee_brackets'
  | 'invoice_not_payable'
  | 'invalid_state_transition'
  | 'injected_fault'
  | 'not_implemented'
  | 'internal_error'
  | 'too_many_waiters'
  | 'daily_limit_exceeded'
  | 'business_account_required'
  // Never in an envelope: the 2FA failure has the real service's own body (OtpError).
  | 'two_factor_invalid';

/** Status of each code: the single code → status table. */
export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_token: 401,
  missing_credentials: 401,
  invalid_access_key: 401,
  invalid_signature: 401,
  invalid_nonce: 401,
  invalid_nonce_format: 400,
  control_token_required: 401,
  host_not_allowed: 403,
  origin_not_allowed: 403,
  callback_of_other_workspace: 403,
  json_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  malformed_json: 400,
  payload_too_large: 413,
  validation_error: 400,
  amount_above_maximum: 400,
  duplicate_external_transaction_id: 400,
  insufficient_balance: 400,
  unknown_target: 400,
  amount_outside_fee_brackets: 400,
  invoice_not_payable: 409,
  invalid_state_transition: 409,
  injected_fault: 500,
  not_implemented: 501,
  internal_error: 500,
  too_many_waiters: 503,
  daily_limit_exceeded: 400,
  business_account_required: 401,
  two_factor_invalid: 422,
};

/** The codes that can appear in `error_codes` of a control error or in `sandbox_debug.code` (the document lists exactly these). */
export const ENVELOPE_CODES = (Object.keys(STATUS_OF) as ErrorCode[]).filter(
  (c) => c !== 'two_factor_invalid',
);

/** Merchant errors whose real body is known to carry `"error_codes": []`: their code goes in `sandbox_debug`. */
export const REAL_UNCODED_MERCHANT_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'invalid_token',
  'not_found',
  'amount_above_maximum',
]);

/** Which API a request is on, which decides the shape of its error body. */
export type ErrorSurface = 'merchant' | 'developer' | 'control';

/**
 * The surface of a path before the router has matched it to an operation (a body too large, a wrong
 * method). A path no operation has is answered by `notFoundSurface` instead.
 */
export function surfaceOfPath(path: string): ErrorSurface {
  if (path === '/_sandbox' || path.startsWith('/_sandbox/')) return 'control';
  // Invoices (and unknown paths: the real `Not found.` body is the merchant one) are merchant-shaped;
  // every other versioned path is the developer API.
  if (/\/invoices(?:\/|$)/.test(path)) return 'merchant';
  return /^\/(?:api\/|d\/api\/)?v\d+\//.test(path) || path.startsWith('/d/api/')
    ? 'developer'
    : 'merchant';
}

/** An unknown path: the merchant API's `Not found.` envelope, or the control API's under `/_sandbox`. */
export function notFoundSurface(path: string): ErrorSurface {
  return surfaceOfPath(path) === 'control' ? 'control' : 'merchant';
}

/** The surface of an operation of the document, by its tag. */
export function surfaceOfTags(tags: readonly string[]): ErrorSurface {
  if (tags.includes('sandbox')) return 'control';
  if (tags.includes('developer')) return 'developer';
  return 'merchant';
}

export type FieldErrors = Record<string, string[]>;

export interface ErrorEnvelope {
  error_codes?: string[];
  errors: FieldErrors;
  sandbox_debug?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly errors: FieldErrors,
    readonly debug?: Record<string, unknown>,
  ) {
    super(Object.values(errors).flat().join(' ') || code);
  }

  /** The status of the code, from the one table. */
  get status(): number {
    return STATUS_OF[this.code];
  }

  /**
   * The response body on `surface`. `withDebug` adds `sandbox_debug` (the sandbox's own code, and any
   * detail such as the message a signature was computed over) where the real body has no room for it.
   */
  body(surface: ErrorSurface = 'control', withDebug = true): object {
    const named =
      surface === 'control' ||
      (surface === 'merchant' && !REAL_UNCODED_MERCHANT_ERRORS.has(this.code));
    if (named) {
      const body: ErrorEnvelope = { error_codes: [this.code], errors: this.errors };
      if (withDebug && this.debug) body.sandbox_debug = this.debug;
      return body;
    }
    const body: ErrorEnvelope =
      surface === 'merchant' ? { error_codes: [], errors: this.errors } : { errors: this.errors };
    if (withDebug) body.sandbox_debug = this.sandboxDebug();
    return body;
  }

  protected sandboxDebug(): Record<string, unknown> {
    return { code: this.code, ...this.debug };
  }

  /** An error on the request as a whole. */
  static general(code: ErrorCode, message: string, debug?: Record<string, unknown>): ApiError {
    return new ApiError(code, { non_field_errors: [message] }, debug);
  }

  /** An error on one field. */
  static field(field: string, message: string, code: ErrorCode = 'validation_error'): ApiError {
    return new ApiError(code, { [field]: [message] });
  }

  /** A body over `limitBytes` (64 KiB unless the path allows more). */
  static payloadTooLarge(limitBytes = 64 * 1024): ApiError {
    const size =
      limitBytes >= 1024 * 1024 ? `${limitBytes / (1024 * 1024)} MiB` : `${limitBytes / 1024} KiB`;
    return ApiError.general('payload_too_large', `Request body is larger than ${size}.`);
  }

  static notFound(): ApiError {
    return ApiError.general('not_found', 'Not found.');
  }

  /** The 500 of a failure of the sandbox itself: never an internal message. */
  static internal(): ApiError {
    return ApiError.general('internal_error', 'A server error occurred.');
  }
}

/**
 * The 2FA failure has its own shape on the real service (docs/design.md#authentication):
 * 422 `{"errors": {"code": "Two-factor code invalid!"}, "success": false}`.
 */
export class OtpError extends ApiError {
  constructor() {
    super('two_factor_invalid', { code: ['Two-factor code invalid!'] });
  }
  override body(_surface?: ErrorSurface, withDebug = true) {
    const body = { errors: { code: 'Two-factor code invalid!' }, success: false as const };
    return withDebug ? { ...body, sandbox_debug: this.sandboxDebug() } : body;
  }
}

/**
 * A nonce not above the key's last one, in the real service's recorded body (2018, the newest evidence):
 * 401 `{"errors": {"non_field_errors": "NONCE is too low.  Last value '<n>'"}, "meta": {"error_codes":
 * ["unauthorized"]}}`: a string, not a list, two spaces after the full stop, and the last nonce accepted
 * as a whole decimal integer.
 */
export class NonceTooLowError extends ApiError {
  constructor(readonly lastNonce: string) {
    super('invalid_nonce', { non_field_errors: [NonceTooLowError.message(lastNonce)] });
  }
  static message(lastNonce: string): string {
    return `NONCE is too low.  Last value '${lastNonce}'`;
  }
  override body(_surface?: ErrorSurface, withDebug = true) {
    const body = {
      errors: { non_field_errors: NonceTooLowError.message(this.lastNonce) },
      meta: { error_codes: ['unauthorized'] },
    };
    return withDebug ? { ...body, sandbox_debug: this.sandboxDebug() } : body;
  }
}

/**
 * A sell-order read signed (HMAC) by an app whose owner is not a business account, in the real service's
 * recorded body (2018): 401 `{"message": "Unauthorized", "status": 401, "success": false}`.
 */
export class BusinessAccountError extends ApiError {
  constructor() {
    super(
      'business_account_required',
      { non_field_errors: ['Unauthorized'] },
      {
        hint: 'HMAC access to sell orders needs a business account (business_account of the app); OAuth2 works without one.',
      },
    );
  }
  override body(_surface?: ErrorSurface, withDebug = true) {
    const body = { message: 'Unauthorized', status: 401, success: false as const };
    return withDebug ? { ...body, sandbox_debug: this.sandboxDebug() } : body;
  }
}

/** What an error thrown anywhere means to the client. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // Hono's bodyLimit and our cheap limit name their errors so.
  if (err instanceof Error && err.name === 'BodyLimitError') return ApiError.payloadTooLarge();
  return ApiError.internal();
}
