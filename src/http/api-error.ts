/**
 * The one error type. Services throw it; one place renders it as the envelope
 * `{"error_codes": [...], "errors": {...}}` (sandbox.md §1).
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
  | 'internal_error';

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
};

export type FieldErrors = Record<string, string[]>;

export interface ErrorEnvelope {
  error_codes: string[];
  errors: FieldErrors;
  sandbox_debug?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly errors: FieldErrors,
    readonly debug?: Record<string, unknown>,
    status?: number,
  ) {
    super(Object.values(errors).flat().join(' ') || code);
    this.status = status ?? STATUS_OF[code];
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

  static notFound(): ApiError {
    return ApiError.general('not_found', 'Not found.');
  }
}

/**
 * The 2FA failure has its own shape on the real service (sandbox.md §3):
 * 422 `{"errors": {"code": "Two-factor code invalid!"}, "success": false}`.
 */
export class OtpError extends Error {
  readonly status = 422;
  constructor() {
    super('Two-factor code invalid!');
  }
  body() {
    return { errors: { code: 'Two-factor code invalid!' }, success: false as const };
  }
}
