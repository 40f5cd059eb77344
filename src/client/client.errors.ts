import type { ApiResponse } from './client.transport.js';
import type { ErrorEnvelope } from './client.types.js';

function isEnvelope(body: unknown): body is ErrorEnvelope {
  return Boolean(body && typeof body === 'object' && Array.isArray((body as ErrorEnvelope).error_codes) && (body as ErrorEnvelope).errors);
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
 * A non-2xx answer of the API, with the status and the error envelope
 * (`{"error_codes": [...], "errors": {...}}`) or, for the 2FA failure, the `{"errors": {"code"}, "success": false}` body.
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
    const codes = isEnvelope(response.body) ? response.body.error_codes : [];
    const path = new URL(response.url).pathname;
    const detail = describeErrors(response.body);
    super(`${response.method} ${path} → ${response.status}${codes.length ? ` [${codes.join(', ')}]` : ''}${detail ? `: ${detail}` : ''}`);
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

  /** `error_codes` of the envelope (empty for other bodies). */
  get codes(): string[] {
    return this.envelope?.error_codes ?? [];
  }

  /** Field errors (`{"amount": ["..."]}`), when the body is the envelope. */
  get fieldErrors(): Record<string, string[]> {
    return this.envelope?.errors ?? {};
  }

  /** True for the 422 2FA failure (`Two-factor code invalid!`). */
  get isOtpError(): boolean {
    return this.status === 422 && (this.body as { success?: unknown } | undefined)?.success === false;
  }

  hasCode(code: string): boolean {
    return this.codes.includes(code);
  }
}
