import type { Operation } from '../spec/load.js';
import type { Answer } from './compare.js';
import { header, type HarEntry } from './har.js';
import { parseLenient } from './lenient-parse.js';
import { provisionBuyOrder, type Credentials, type Target } from './target.js';

/** How a replayed request authenticates: as recorded, or one of the failures the corpus shows. */
export type AuthMode =
  | 'hmac'
  | 'token'
  | 'bearer'
  | 'none'
  | 'wrong-token'
  | 'bad-signature'
  | 'stale-nonce'
  | 'mfa'
  | 'non-business';

/** `parity/requests.json`: what an entry needs beyond what was recorded (a body the source left out, a failure). */
export interface EntryOverride {
  body?: unknown;
  auth?: AuthMode;
  /** Send the request this many times first (a duplicate's first use). */
  repeat?: number;
  /** The path to send instead of the recorded one (a doc's example code that drops the id its reference names). */
  path?: string;
  note: string;
}

export interface ReplayContext {
  target: Target;
  creds: Credentials;
  /** Map recorded ids, accounts, addresses and references to the workspace's (parity); off for replay. */
  mapIds: boolean;
  /**
   * Compare recorded callbacks with the ones the target sends, read from its delivery log through its
   * control API (parity, against a sandbox); off for replay, whose target is another service.
   */
  callbacks?: boolean;
  unique: () => string;
  /**
   * A recorded session's ids and ours (`recorded id → ours`): learnt from each answer (a create's `id`),
   * and from each resource provisioned for a recorded id, so that the session's later requests naming the
   * recorded id (in the path, the query or the body) reach the same resource: create → mark paid → read.
   * Not used for the committed corpus, whose entries are independent examples.
   */
  ids?: Map<string, string>;
}

/** Learn the ids of an answer: where the recorded body has an `id` (or `…_id`) string, ours at that path. */
export function learnIds(recorded: unknown, ours: unknown, ids: Map<string, string>): void {
  if (!recorded || !ours || typeof recorded !== 'object' || typeof ours !== 'object') return;
  if (Array.isArray(recorded) || Array.isArray(ours)) return; // list items are other records
  const o = ours as Record<string, unknown>;
  for (const [k, v] of Object.entries(recorded as Record<string, unknown>)) {
    const mine = o[k];
    if (
      /^(id|.+_id)$/.test(k) &&
      k !== 'external_transaction_id' &&
      typeof v === 'string' &&
      typeof mine === 'string' &&
      v.length >= 2 &&
      v !== mine &&
      !ids.has(v)
    )
      ids.set(v, mine);
    else learnIds(v, mine, ids);
  }
}

/** A recorded string with the session's known ids replaced by ours. */
function chainIds(s: string, ids: Map<string, string> | undefined): string {
  if (!ids?.size) return s;
  let out = s;
  for (const [rec, ours] of ids) if (out.includes(rec)) out = out.split(rec).join(ours);
  return out;
}

const UNKNOWN_ID = '0'.repeat(32);
type ResourceKind = 'buyorder' | 'invoice' | 'sellorder' | 'crypto-route';
const RESOURCES: Array<{ rx: RegExp; kind: ResourceKind }> = [
  { rx: /\/buyorder\/([^/?]+)/, kind: 'buyorder' },
  { rx: /\/crypto-routes\/([^/?]+)/, kind: 'crypto-route' },
  { rx: /\/invoices\/([^/?]+)/, kind: 'invoice' },
  { rx: /\/sellorder\/([^/?]+)/, kind: 'sellorder' },
];

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
  const text = e.response.content.text ?? '';
  if (/nonce is too low/i.test(text)) return 'stale-nonce';
  if (/signature cannot be matched|invalid signature/i.test(text)) return 'bad-signature';
  if (/invalid token/i.test(text)) return 'wrong-token';
  if (e.response.status === 401 && /credentials were not provided/i.test(text)) return 'none';
  return undefined;
}

interface Outgoing {
  method: string;
  url: string;
  body: string | undefined;
  type: string | undefined;
  auth: AuthMode;
  /** The HMAC header names as recorded: `ACCESS_KEY` (default) or `Access-Key`. */
  spelling?: 'underscore' | 'dash';
}

async function send(
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

function mapBody(
  value: unknown,
  key: string,
  ctx: ReplayContext,
  uniq: string,
  ids: Map<string, string> | undefined,
): unknown {
  const { accounts, customerEmail, customerPhone } = ctx.creds;
  if (Array.isArray(value)) return value.map((v) => mapBody(v, key, ctx, uniq, ids));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, mapBody(v, k, ctx, uniq, ids)]),
    );
  }
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const s = String(value);
  const known = ids?.get(s);
  if (known !== undefined) return known;
  if (!ctx.mapIds) return value;
  const named = /^<(\w+) account id>$/.exec(s)?.[1];
  if (/^(account|source_account|receiving_account)$/.test(key))
    return accounts[named ?? 'PHP'] ?? accounts.PHP;
  if (key === 'target_account') return accounts[named ?? 'BTC'] ?? accounts.BTC ?? accounts.PHP;
  if (key === 'target_wallet') return accounts.BTC ?? accounts.PHP;
  if (/^(target_address|payer_contact_info)$/.test(key)) return customerEmail;
  if (/phone/.test(key)) return customerPhone;
  if (key === 'external_transaction_id') return uniq;
  return value;
}

async function provision(ctx: ReplayContext, kind: ResourceKind): Promise<string> {
  const base = ctx.target.baseUrl;
  if (kind === 'buyorder') return provisionBuyOrder(ctx.target, ctx.creds);
  if (kind === 'crypto-route') {
    const route = await readAnswer(
      await send(ctx, {
        method: 'POST',
        url: `${base}/v3/crypto-routes/`,
        body: JSON.stringify({ monitored_address: ctx.unique(), stock_address: ctx.unique() }),
        type: 'application/json',
        auth: 'hmac',
      }),
    );
    const id = (route.body as { id?: string } | null)?.id;
    if (route.status !== 201 || !id)
      throw new Error(`could not create a crypto route: ${route.status}`);
    return id;
  }
  const [url, body, auth]: [string, unknown, AuthMode] =
    kind === 'invoice'
      ? [
          `${base}/v3/invoices/`,
          { amount: '20', currency: 'PHP', external_transaction_id: ctx.unique() },
          'token',
        ]
      : [
          `${base}/v1/sellorder`,
          {
            amount: '5',
            currency: 'PHP',
            payment_outlet: 'coins_transfer',
            pay_with_wallet: 'PHP',
            target_address: ctx.creds.customerEmail,
            external_transaction_id: ctx.unique(),
          },
          'hmac',
        ];
  const answer = await readAnswer(
    await send(ctx, {
      method: 'POST',
      url,
      body: JSON.stringify(body),
      type: 'application/json',
      auth,
    }),
  );
  const id = (answer.body as Record<string, { id?: string }>)?.[
    kind === 'invoice' ? 'invoice' : 'order'
  ]?.id;
  if (answer.status >= 300 || !id)
    throw new Error(
      `could not create a ${kind} to replay against: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
    );
  return id;
}

/**
 * The recorded URL under the target's base: path and query as recorded, a session's known ids chained,
 * and (parity) a recorded id it does not know mapped to a resource provisioned for it.
 */
async function targetUrl(
  e: HarEntry,
  ctx: ReplayContext,
  ids: Map<string, string> | undefined,
): Promise<string> {
  const u = new URL(e.request.url.replace(/\{[a-z_]+\}/g, UNKNOWN_ID));
  let rest = chainIds(`${u.pathname}${u.search}`, ids);
  if (ctx.mapIds) {
    for (const r of RESOURCES) {
      const id = r.rx.exec(u.pathname)?.[1];
      if (!id || id === UNKNOWN_ID || ids?.has(id)) continue;
      const ours = await provision(ctx, r.kind);
      ids?.set(id, ours); // the session's later requests reach the same resource
      rest = rest.split(id).join(ours);
    }
  }
  return `${ctx.target.baseUrl}${rest}`;
}

const FORM = /application\/x-www-form-urlencoded/i;

/** A form body with its values mapped like a JSON body's (accounts, e-mails, the session's ids). */
function mapForm(body: string, ctx: ReplayContext, ids: Map<string, string> | undefined): string {
  const uniq = ctx.unique();
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(body))
    out.append(k, String(mapBody(v, k, ctx, uniq, ids)));
  return out.toString();
}

/** The entry as it is replayed: at the override's path when it names one. */
export function replayedAt(e: HarEntry, override?: EntryOverride): HarEntry {
  if (!override?.path) return e;
  return { ...e, request: { ...e.request, url: new URL(override.path, e.request.url).href } };
}

/** Replay one recorded request against the target, re-authenticated, and read the answer. */
export async function replayEntry(
  e: HarEntry,
  op: Operation | undefined,
  ctx: ReplayContext,
  override?: EntryOverride,
  /** A recorded session's ids (ReplayContext.ids), or undefined for an independent entry. */
  ids?: Map<string, string>,
): Promise<Answer> {
  const url = await targetUrl(replayedAt(e, override), ctx, ids);
  const post = e.request.postData;
  const type = header(e.request.headers, 'content-type') ?? post?.mimeType;
  let body: string | undefined =
    override?.body !== undefined ? JSON.stringify(override.body) : post?.text;
  const mapping = ctx.mapIds || (ids?.size ?? 0) > 0;
  if (mapping && body !== undefined && override?.body === undefined && FORM.test(type ?? '')) {
    body = mapForm(body, ctx, ids);
  } else if (mapping && body !== undefined) {
    const parsed =
      override?.body ??
      (parseLenient(body).ok ? (parseLenient(body) as { value: unknown }).value : undefined);
    if (parsed !== undefined && typeof parsed === 'object')
      body = JSON.stringify(mapBody(parsed, '', ctx, ctx.unique(), ids));
    else if (!type?.includes('json') && body.includes('=')) body = mapForm(body, ctx, ids);
  }
  if (body === '' || (body === undefined && override?.body === undefined))
    body = post?.text || undefined;
  if (['GET', 'HEAD'].includes(e.request.method)) body = undefined; // fetch sends none (errors.har#3 records one)
  const auth = override?.auth ?? recordedFailure(e) ?? authOf(e, op);
  const spelling = e.request.headers.some((h) => /^access-(key|signature)$/i.test(h.name))
    ? 'dash'
    : 'underscore';
  const out: Outgoing = { method: e.request.method, url, body, type, auth, spelling };
  for (let i = 0; i < (override?.repeat ?? 0); i++) await (await send(ctx, out)).arrayBuffer();
  return readAnswer(await send(ctx, out));
}
