// The transport's answer type on its own, so that the errors module and the transport need not import each other.

/** One answer of the API, whatever its status. */
export interface ApiResponse<T = unknown> {
  /** The operationId of the document the call was meant for, when the client knows it. */
  operationId?: string;
  method: string;
  /** The full URL as sent (and signed). */
  url: string;
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON when the response says it is JSON (and parses), else the text. */
  body: T;
  request: { headers: Record<string, string>; body?: string };
  /** 1 unless the request was repeated after a 429/503 with Retry-After. */
  attempts: number;
}
