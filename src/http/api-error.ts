import type { Context } from 'hono';

/**
 * The one error family. Services throw an ApiError; `renderError` is the one place that turns it into
 * a response: the envelope `{"error_codes": [...], "errors": {...}}` (docs/design.md#wire-conventions),
 * or the real service's own shape for the kinds that have one (`OtpError`), with the status of its
 * code from `STATUS_OF` and nowhere else.
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
  two_factor_invalid: 422,
};

/** The codes that can appear in `error_codes` (the document lists exactly these). */
export const ENVELOPE_CODES = (Object.keys(STATUS_OF) as ErrorCode[]).filter((c) => c !== 'two_factor_invalid');

export type FieldErrors = Record<string, string[]>;

export interface ErrorEnvelope {
  error_codes: string[];
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

  /** The response body: the envelope, unless a kind has the real service's own shape. */
  body(): unknown {
    return this.envelope();
  }

  envelope(): ErrorEnvelope {
    const body: ErrorEnvelope = { error_codes: [this.code], errors: this.errors };
    if (this.debug) body.sandbox_debug = this.debug;
    return body;
  }

  /** An error on the request as a whole. */
  static general(code: ErrorCode, message: string, debug?: Record<string, unknown>): ApiError {
    return new ApiError(code, { non_field_errors: [message] }, debug);
  }

  /** An error on one field. */
  static field(field: string, message: string, code: ErrorCode = 'validation_error'): ApiError {
    return new ApiError(code, { [field]: [message] });
  }

  static payloadTooLarge(): ApiError {
    return ApiError.general('payload_too_large', 'Request body is larger than 64 KiB.');
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
  override body() {
    return { errors: { code: 'Two-factor code invalid!' }, success: false as const };
  }
}

/**
 * The one renderer of errors, for the API, the hosted page, the control guard and the dashboard
 * (like Hono's `HTTPException.getResponse()`, but through the context so headers set earlier stay).
 * Anything that is not an ApiError is the sandbox's own failure: a 500 that says nothing more.
 */
export function renderError(c: Context, err: unknown, headers?: Record<string, string>): Response {
  const e = toApiError(err);
  return c.json(e.body() as object, e.status as 400, headers);
}

/** What an error thrown anywhere means to the client. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // Hono's bodyLimit and our cheap limit name their errors so.
  if (err instanceof Error && err.name === 'BodyLimitError') return ApiError.payloadTooLarge();
  return ApiError.internal();
}
