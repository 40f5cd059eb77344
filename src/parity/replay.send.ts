/**
 * A replayed request sent as the recorded one authenticated (HMAC, a token, a bearer), or as the
 * authentication failure it recorded, and its answer read.
 */
import { retryAfterMs } from '../client/client.transport.js';
import type { Operation } from '../spec/load.js';
import type { Answer } from './compare.types.js';
import { header, responseText, type HarEntry } from './har.js';
import type { AuthMode, ReplayContext } from './replay.types.js';

/** The authentication a recorded request used, read from its headers and the operation's security. */
export function authOf(e: HarEntry, op: Operation | undefined): AuthMode {
  const h = e.request.headers;
  if (h.some((x) => /^access[-_](key|signature)$/i.test(x.name))) return 'hmac';
  const auth = header(h, 'authorization');
  const kind = op?.auth ?? 'hmac';
  if (auth) return kind === 'hmac' ? (/token/i.test(auth) ? 'token' : 'bearer') : 'token';
  if (kind === 'merchant') return 'token';
  return kind === 'hmac' ? 'hmac' : 'none';
}

/**
 * The authentication failure a recorded answer shows (a session's own HAR has no parity/requests.json
 * override to say so): a stale nonce, a signature or token refused, or no credentials. Replayed as that
 * failure, not re-signed into a success.
 */
export function recordedFailure(e: HarEntry): AuthMode | undefined {
  if (e.response.status !== 401 && !e.response._statusUnknown) return undefined;
  const text = responseText(e);
  if (/nonce is too low/i.test(text)) return 'stale-nonce';
  if (/signature cannot be matched|invalid signature/i.test(text)) return 'bad-signature';
  if (/invalid token/i.test(text)) return 'wrong-token';
  if (e.response.status === 401 && /credentials were not provided/i.test(text)) return 'none';
  return undefined;
}

export interface Outgoing {
  method: string;
  url: string;
  body: string | undefined;
  type: string | undefined;
  auth: AuthMode;
  /** The HMAC header names as recorded: `ACCESS_KEY` (default) or `Access-Key`. */
  spelling?: 'underscore' | 'dash';
}

/**
 * Send a replayed request; with `ctx.retry`, a 429 or 503 with Retry-After is sent again (re-signed)
 * after the wait, as the contract suite's clients do, within its bounds.
 */
export async function send(ctx: ReplayContext, out: Outgoing): Promise<Response> {
  for (let n = 1; ; n++) {
    const res = await sendOnce(ctx, out);
    const wait =
      ctx.retry && (res.status === 429 || res.status === 503)
        ? retryAfterMs(res.headers.get('retry-after'))
        : undefined;
    if (!ctx.retry || wait === undefined || n > ctx.retry.retries || wait > ctx.retry.maxWaitMs)
      return res;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, wait));
  }
}

async function sendOnce(
  ctx: ReplayContext,
  { method, url, body, type, auth, spelling = 'underscore' }: Outgoing,
): Promise<Response> {
  const { creds } = ctx;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = type ?? 'application/json';
  const signed = async (signer = creds.signer, nonce?: string) =>
    signer.exclusive(() =>
      ctx.target.fetch(url, {
        method,
        body,
        headers: { ...headers, ...signer.sign(url, body ?? '', { nonce, spelling }) },
      }),
    );
  switch (auth) {
    case 'hmac':
      return signed();
    case 'mfa':
      return signed(creds.mfaSigner);
    case 'non-business':
      return signed(creds.nonBusinessSigner);
    case 'bad-signature':
      return signed(creds.signer.withSecret('not-the-secret'));
    case 'stale-nonce': {
      await (await signed()).arrayBuffer(); // a first call moves the key's last nonce
      return signed(creds.signer, '1');
    }
    case 'token':
    case 'wrong-token':
      headers.authorization = `Token ${auth === 'token' ? creds.merchantToken : 'not-a-token'}`;
      break;
    case 'bearer':
      headers.authorization = `Bearer ${creds.bearer}`;
      break;
    case 'none':
      break;
  }
  return ctx.target.fetch(url, { method, body, headers });
}

export async function readAnswer(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}
