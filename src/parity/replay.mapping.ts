/**
 * A recorded request's values made ours: the session's ids learnt from earlier answers, and (parity)
 * the accounts, addresses, e-mails and references of the workspace replayed against.
 */
import type { ReplayContext } from './replay.types.js';

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

/**
 * The recorded accounts of a session (the answers of its `GET /v3/crypto-accounts/`) as the target's
 * accounts of the same currency, so that every later request naming one names the target's.
 */
export function learnAccounts(
  recorded: unknown,
  accounts: Record<string, string>,
  ids: Map<string, string>,
): void {
  const list = (recorded as { 'crypto-accounts'?: unknown } | null)?.['crypto-accounts'];
  if (!Array.isArray(list)) return;
  for (const acc of list as Array<{ id?: unknown; currency?: unknown }>) {
    const ours = typeof acc.currency === 'string' ? accounts[acc.currency] : undefined;
    if (typeof acc.id === 'string' && ours && acc.id !== ours && !ids.has(acc.id))
      ids.set(acc.id, ours);
  }
}

/** A recorded string with the session's known ids replaced by ours. */
export function chainIds(s: string, ids: Map<string, string> | undefined): string {
  if (!ids?.size) return s;
  let out = s;
  for (const [rec, ours] of ids) if (out.includes(rec)) out = out.split(rec).join(ours);
  return out;
}

/** A recorded reference this short is not chained through the session (it would match anywhere). */
const MIN_REFERENCE = 6;

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const PHONE = /^\+?[\d\s-]{10,15}$/;

/**
 * A recorded account, e-mail or phone of a field parity maps, as the target's own: the workspace's
 * (parity), or (replay, `asRecorded`) the target's when it is known and the recorded value is of that kind.
 * Undefined keeps the recorded value.
 */
function party(
  s: string,
  key: string,
  ctx: ReplayContext,
  asRecorded: boolean,
): string | undefined {
  const { accounts, customerEmail, customerPhone } = ctx.creds;
  const named = /^<(\w+) account id>$/.exec(s)?.[1];
  if (/^(account|source_account|receiving_account)$/.test(key))
    return accounts[named ?? 'PHP'] ?? accounts.PHP;
  if (key === 'target_account') return accounts[named ?? 'BTC'] ?? accounts.BTC ?? accounts.PHP;
  if (key === 'target_wallet') return accounts.BTC ?? accounts.PHP;
  if (/^(target_address|payer_contact_info)$/.test(key)) {
    if (!asRecorded) return customerEmail;
    if (EMAIL.test(s)) return customerEmail || undefined;
    return PHONE.test(s) ? customerPhone || undefined : undefined;
  }
  if (/phone/.test(key)) return asRecorded ? customerPhone || undefined : customerPhone;
  return undefined;
}

export function mapBody(
  value: unknown,
  key: string,
  ctx: ReplayContext,
  uniq: string,
  ids: Map<string, string> | undefined,
): unknown {
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
  if (key === 'external_transaction_id' && (ctx.mapIds || ctx.freshReferences)) {
    // The session's later requests naming the reference (a lookup, a query) name ours.
    if (s.length >= MIN_REFERENCE && !ctx.mapIds) ids?.set(s, uniq);
    return uniq;
  }
  if (!ctx.mapIds && !ctx.parties) return value;
  return party(s, key, ctx, !ctx.mapIds) ?? value;
}

export const FORM = /application\/x-www-form-urlencoded/i;

/** A form body with its values mapped like a JSON body's (accounts, e-mails, the session's ids). */
export function mapForm(
  body: string,
  ctx: ReplayContext,
  ids: Map<string, string> | undefined,
): string {
  const uniq = ctx.unique();
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(body))
    out.append(k, String(mapBody(v, k, ctx, uniq, ids)));
  return out.toString();
}
