import type { Operation } from '../../spec/load.js';
import type { FuzzWorld, SigningApp } from './fuzz.world.js';
import { itemAt } from '../../shared/defined.js';

/**
 * What the sandbox must do with a request:
 * - `documented`: any status the document lists for the operation (a valid request may still be
 *   refused for business reasons: balance, duplicates, state);
 * - `reject`: a 4xx the document lists (the request breaks the document's own rules);
 * - `unauthorized`: 401 (the credentials are wrong);
 * - `forbidden`: 403 (a control request a browser page could have sent cross-site).
 */
export type Expectation = 'documented' | 'reject' | 'unauthorized' | 'forbidden';

/** How the credentials of a request are spoiled (`good`: signed/tokened properly). */
export type AuthFault =
  | 'good'
  | 'missing'
  | 'wrong-secret'
  | 'uppercase-signature'
  | 'replayed-nonce'
  | 'garbage-nonce'
  | 'other-url-signed'
  | 'unknown-key'
  | 'wrong-token'
  | 'foreign-origin';

/** A request before credentials are added (signing needs the final URL and body bytes). */
export interface Draft {
  op: Operation;
  /** `valid`, or the name of the mutation that made it invalid. */
  kind: string;
  pathParams: Record<string, string>;
  query: Array<[string, string]>;
  /** JSON body; `raw` wins when set. */
  body?: unknown;
  raw?: string;
  contentType?: string;
  headers: Record<string, string>;
  auth: AuthFault;
  /** Which developer app signs (index into world.apps), unless `signWith` names another. */
  app: number;
  signWith?: SigningApp;
  expect: Expectation;
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Percent-encoding that survives lone surrogates (sent as U+FFFD, as a browser would). */
export const enc = (s: string) =>
  encodeURIComponent(
    s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );

export function pathOf(d: Draft): string {
  const path = d.op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    enc(d.pathParams[name] ?? ''),
  );
  const qs = d.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

export function bodyText(d: Draft): string | undefined {
  if (d.raw !== undefined) return d.raw;
  return d.body === undefined ? undefined : JSON.stringify(d.body);
}

/** The request as sent: URL, body bytes and credentials (HMAC over nonce + full URL + body). */
export function toWire(d: Draft, world: FuzzWorld): WireRequest {
  const url = world.baseUrl + pathOf(d);
  const body = bodyText(d);
  const headers: Record<string, string> = { ...d.headers };
  if (body !== undefined) headers['content-type'] = d.contentType ?? 'application/json';
  const auth = d.op.auth;
  // A merchant-or-public read (the v1 invoice read) takes the same credentials; without any it is public.
  if (auth === 'merchant' || auth === 'merchant-or-public') {
    if (d.auth === 'good')
      headers.authorization = itemAt(world.merchantTokens, d.app % world.merchantTokens.length);
    else if (d.auth !== 'missing')
      headers.authorization =
        d.auth === 'wrong-token' ? 'Token not-a-real-token-0000' : 'Basic Zm9vOmJhcg==';
  } else if (auth === 'control') {
    if (d.auth === 'good' || d.auth === 'foreign-origin')
      headers['x-sandbox-token'] = world.controlToken;
    else if (d.auth !== 'missing') headers['x-sandbox-token'] = world.controlToken + 'x';
    // The right token, from a page of another site: a browser adds the Origin, the sandbox refuses it.
    if (d.auth === 'foreign-origin') headers.origin = 'http://evil.example';
  } else if (auth === 'hmac' && d.auth !== 'missing') {
    const app = d.signWith ?? itemAt(world.apps, d.app % world.apps.length);
    let nonce = world.nextNonce();
    const replay = world.accepted.get(app.key);
    // No accepted nonce to replay yet (or the key was reset): a nonce that is not a number instead.
    if (d.auth === 'replayed-nonce') nonce = replay?.nonce ?? 'not-a-nonce';
    if (d.auth === 'garbage-nonce') nonce = 'abc' + nonce;
    let signature = world.sign(
      app,
      nonce,
      d.auth === 'other-url-signed' ? url + 'x' : url,
      body ?? '',
    );
    if (d.auth === 'wrong-secret')
      signature = world.sign({ ...app, secret: app.secret + 'x' }, nonce, url, body ?? '');
    if (d.auth === 'uppercase-signature') signature = signature.toUpperCase();
    headers['ACCESS_KEY'] = d.auth === 'unknown-key' ? 'no-such-key-' + app.key : app.key;
    headers['ACCESS_NONCE'] = nonce;
    headers['ACCESS_SIGNATURE'] = signature;
  }
  return { method: d.op.method.toUpperCase(), url, headers, body };
}

export interface WireResponse {
  status: number;
  contentType: string;
  text: string;
  ms: number;
  /** A server-sent event stream: `text` holds its first message only, then the request was aborted. */
  stream?: boolean;
}

/**
 * The start of a server-sent event stream, which never ends by itself: the chunks up to the end of the
 * first named event (`event: ...` then a blank line), or the first 64 KiB, whichever comes first.
 */
async function firstEvent(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!/(^|\n)event: [^\n]*\n(?:[^\n]+\n)*\n/.test(text) && text.length < 65_536) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

/**
 * Send with a deadline: a request that has no complete answer in `deadlineMs` is a hang. The timer
 * races the whole exchange (headers and body), and the request is aborted when it fires. An event
 * stream stays open by design: it is answered once its first event is in, and then aborted.
 */
export async function send(
  w: WireRequest,
  deadlineMs: number,
): Promise<WireResponse | { hang: true; ms: number } | { error: string }> {
  const started = performance.now();
  const ctrl = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'hang'>(
    (resolve) => (timer = setTimeout(() => resolve('hang'), deadlineMs)),
  );
  const exchange = (async () => {
    const res = await fetch(w.url, {
      method: w.method,
      headers: w.headers,
      body: w.body,
      signal: ctrl.signal,
      redirect: 'manual',
    });
    const contentType = res.headers.get('content-type') ?? '';
    if (/^text\/event-stream\b/i.test(contentType)) {
      const text = await firstEvent(res.body);
      ctrl.abort(); // the server sees the client leave and ends the stream
      return {
        status: res.status,
        contentType,
        text,
        ms: performance.now() - started,
        stream: true,
      };
    }
    const text = await res.text();
    return { status: res.status, contentType, text, ms: performance.now() - started };
  })();
  try {
    const r = await Promise.race([exchange, deadline]);
    if (r === 'hang') {
      ctrl.abort();
      exchange.catch(() => undefined);
      return { hang: true, ms: performance.now() - started };
    }
    return r;
  } catch (err) {
    return {
      error:
        (err as Error).message +
        ((err as { cause?: Error }).cause ? `: ${(err as { cause: Error }).cause.message}` : ''),
    };
  } finally {
    clearTimeout(timer);
  }
}
