/**
 * `paysandbox replay`'s preflight: the contract suite's checks (src/cli/preflight.checks.ts) for the
 * credentials the recorded session uses, before any entry is replayed. A problem is one PreflightError line.
 */
import type { HmacSigner } from '../client/hmac.signer.js';
import {
  ask,
  checkMerchantToken,
  describeAnswer,
  hmacRefusal,
  notTheApi,
  PreflightError,
  signedRead,
  SIGNED_READ_PATH,
  type PreflightAnswer,
} from './preflight.checks.js';

const SETTING = '--base-url';

export interface ReplayPreflightInput {
  base: string;
  /** How the session's requests authenticate (`hmac`, `token`, `bearer`, `none`). */
  modes: ReadonlySet<string>;
  merchantToken: string;
  bearer: string;
  signer: HmacSigner;
}

/** `{"crypto-accounts": [{id, currency}]}` → the account id of each currency. */
function accountsOf(a: PreflightAnswer): Record<string, string> {
  const list = (a.body as { 'crypto-accounts'?: Array<{ id?: unknown; currency?: unknown }> })?.[
    'crypto-accounts'
  ];
  const out: Record<string, string> = {};
  for (const acc of Array.isArray(list) ? list : [])
    if (typeof acc.id === 'string' && typeof acc.currency === 'string' && !out[acc.currency])
      out[acc.currency] = acc.id;
  // The peso wallet is `PBTC` in the service's lists; a request's `<PHP account id>` is that wallet.
  if (out.PBTC && !out.PHP) out.PHP = out.PBTC;
  return out;
}

function assertTheApi(base: string, what: string, a: PreflightAnswer): void {
  const wrong = notTheApi(base, what, a, SETTING);
  if (wrong) throw new PreflightError(wrong);
}

/**
 * Each credential the session uses, with the suite's read for it: the merchant token
 * (`GET /v3/invoices/`), the HMAC key (a signed `GET /v3/crypto-accounts/`), the bearer token (the same
 * read with it); a session with none of them, a public read. Returns the target's own accounts by
 * currency (from the accounts read), to map the recorded ones onto.
 */
export async function replayPreflight(
  fetchFn: typeof fetch,
  input: ReplayPreflightInput,
): Promise<Record<string, string>> {
  const { base, modes } = input;
  const read = `GET ${SIGNED_READ_PATH}`;
  let accounts: Record<string, string> = {};
  if (modes.has('token')) await checkMerchantToken(fetchFn, base, input.merchantToken, SETTING);
  if (modes.has('hmac')) {
    const h = await signedRead(fetchFn, base, input.signer, '');
    assertTheApi(base, read, h);
    if (h.status !== 200) throw hmacRefusal(base, h);
    accounts = accountsOf(h);
  }
  if (modes.has('bearer')) {
    const b = await ask(fetchFn, `${base}${SIGNED_READ_PATH}`, {
      authorization: `Bearer ${input.bearer}`,
    });
    assertTheApi(base, read, b);
    if (b.status === 401 || b.status === 403)
      throw new PreflightError(
        `CONTRACT_BEARER_TOKEN is refused by ${base}: ${read} answered ${describeAnswer(b)}`,
      );
    if (!Object.keys(accounts).length) accounts = accountsOf(b);
  }
  if (!['token', 'hmac', 'bearer'].some((m) => modes.has(m)))
    assertTheApi(base, 'GET /v1/markets', await ask(fetchFn, `${base}/v1/markets`, {}));
  return accounts;
}
