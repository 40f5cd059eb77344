import type { ApiResponse } from './client.transport.types.js';
import type { ErrorEnvelope } from './client.types.js';

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const errors = body && typeof body === 'object' ? (body as ErrorEnvelope).errors : undefined;
  // The 2FA body's `errors` holds a string, not lists: it is not an envelope.
  return Boolean(
    errors && typeof errors === 'object' && Object.values(errors).every(Array.isArray),
  );
}

/**
 * The codes of an error body: its `error_codes` when it names any, else the sandbox's own code
 * (`sandbox_debug.code`). Empty for a body that names none (the real service's `Invalid token.`).
 */
export function errorCodesOf(body: unknown): string[] {
  const b = body as ErrorEnvelope | undefined;
  if (b?.error_codes?.length) return b.error_codes;
  const code = b?.sandbox_debug?.code;
  return typeof code === 'string' ? [code] : [];
}

function describeErrors(body: unknown): string {
  if (!body || typeof body !== 'object') return typeof body === 'string' ? body.slice(0, 200) : '';
  const errors = (body as { errors?: unknown }).errors;
  if (!errors || typeof errors !== 'object') return JSON.stringify(body).slice(0, 200);
  return Object.entries(errors as Record<string, unknown>)
    .map(([field, msgs]) => `${field}: ${Array.isArray(msgs) ? msgs.join(' ') : String(msgs)}`)
    .join('; ');
}

/**
 * A non-2xx answer of the API, with the status and the error body (`{"errors": {...}}`, with
 * `error_codes` on the merchant and control APIs) or, for the 2FA failure, the
 * `{"errors": {"code"}, "success": false}` body. `codes` holds the sandbox's code of the error
 * (from `error_codes`, or `sandbox_debug.code` where the real body has none).
 *
 * @example
 * try {
 *   await merchant.getInvoice('0'.repeat(32));
 * } catch (err) {
 *   if (err instanceof PaySandboxApiError && err.status === 404) console.log(err.codes); // ['not_found']
 * }
 */
export class PaySandboxApiError extends Error {
  override readonly name = 'PaySandboxApiError';
  readonly status: number;
  readonly method: string;
  readonly url: string;
  /** The parsed response body (the envelope, the OTP error body, or the text when not JSON). */
  readonly body: unknown;
  readonly response: ApiResponse;

  constructor(response: ApiResponse) {
    const codes = errorCodesOf(response.body);
    const path = new URL(response.url).pathname;
    const detail = describeErrors(response.body);
    super(
      `${response.method} ${path} → ${response.status}${codes.length ? ` [${codes.join(', ')}]` : ''}${detail ? `: ${detail}` : ''}`,
    );
    this.status = response.status;
    this.method = response.method;
    this.url = response.url;
    this.body = response.body;
    this.response = response;
  }

  /** The error envelope, when the body is one. */
  get envelope(): ErrorEnvelope | undefined {
    return isEnvelope(this.body) ? this.body : undefined;
  }

  /**
   * The error's codes: `error_codes` when the body names any, else the sandbox's `sandbox_debug.code`
   * (empty against the real service, or with `--no-debug-errors`, where the body has neither).
   */
  get codes(): string[] {
    return errorCodesOf(this.body);
  }

  /** Field errors (`{"amount": ["..."]}`), when the body is the envelope. */
  get fieldErrors(): Record<string, string[]> {
    return this.envelope?.errors ?? {};
  }

  /** True for the 422 2FA failure (`Two-factor code invalid!`). */
  get isOtpError(): boolean {
    return (
      this.status === 422 && (this.body as { success?: unknown } | undefined)?.success === false
    );
  }

  hasCode(code: string): boolean {
    return this.codes.includes(code);
  }
}
