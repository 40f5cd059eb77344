import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createHmacSigner } from '../client/hmac.signer.js';
import type { Credentials } from '../parity/target.js';
import { parseCommandArgs, UsageError } from './args.js';
import type { CliCommand } from './command.types.js';
import { PreflightError } from './preflight.checks.js';
import { assertNotProduction } from './production-guard.js';
import { replayPreflight } from './replay.preflight.js';
import {
  assertBaseUrl,
  DEFAULT_MIN_INTERVAL_MS,
  flag,
  intFromEnv,
  MONEY_OPERATIONS,
  MONEY_SKIP_REASON,
  newRunId,
  pacedFetch,
  referenceMaker,
  RETRY_AFTER,
} from './target-rules.js';

const USAGE =
  'replay --har FILE --base-url URL [--allow-money] [--min-interval MS] [--junit FILE] [--json]';

const HELP = `Usage: paysandbox ${USAGE}

Replay what your code sent (a HAR file, e.g. recorded against the sandbox with
paysandbox record --upstream http://127.0.0.1:7070) against another service, re-authenticated with its
credentials, and compare its answers with the recorded ones, as paysandbox parity does: status, keys,
types, formats, enum values. Credentials come from the environment of the contract suite:
CONTRACT_API_KEY and CONTRACT_API_SECRET (HMAC, fresh nonces; CONTRACT_NONCE_START), CONTRACT_MERCHANT_TOKEN
(Token), CONTRACT_BEARER_TOKEN (OAuth2) — only those the recorded requests use.
The contract suite's preflight and safety rules apply: the base URL is scheme, host and port only; a
host that does not answer, or credentials it refuses, stop the replay before any entry with one line;
production hosts are refused (CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1 to force); entries that move money
(sell and load orders, transfers, crypto payments, conversions, buy orders marked paid) are skipped
unless CONTRACT_ALLOW_MONEY=1 or --allow-money; request starts are spaced by CONTRACT_MIN_INTERVAL_MS
(--min-interval, default ${DEFAULT_MIN_INTERVAL_MS}) and a 429/503 with Retry-After is sent again after the wait.
Each recorded external_transaction_id is replaced by one unique to the run (the same wherever the session
names it again), so a session can be replayed any number of times. Recorded accounts become the target's
(read with the HMAC key), recorded e-mails and phones of recipients CONTRACT_CUSTOMER_EMAIL and
CONTRACT_CUSTOMER_PHONE (default: CONTRACT_TRANSFER_TARGET, by its kind).
Exit code 0 when every answer has the recorded shape, 1 when one differs, 2 on bad usage, missing
credentials or a failed preflight.`;

const NEEDS: Record<string, string[]> = {
  hmac: ['CONTRACT_API_KEY', 'CONTRACT_API_SECRET'],
  token: ['CONTRACT_MERCHANT_TOKEN'],
  bearer: ['CONTRACT_BEARER_TOKEN'],
};

/** A recorded JSON answer, or undefined. */
function parseRecorded(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `paysandbox replay`: the integrator's own requests against staging, answers diffed (docs/parity.md). */
export const replayCommand: CliCommand = {
  name: 'replay',
  usage: USAGE,
  summary: "replay a HAR's requests against another URL, re-signed, and diff the answers",
  help: HELP,
  async run(args, env) {
    const { values } = parseCommandArgs(args, {
      har: { type: 'string', multiple: true },
      'base-url': { type: 'string' },
      junit: { type: 'string' },
      json: { type: 'boolean' },
      'allow-money': { type: 'boolean' },
      'min-interval': { type: 'string' },
    });
    const files = (values.har as unknown as string[] | undefined) ?? [];
    const baseUrl = values['base-url'] as string | undefined;
    if (!files.length) throw new UsageError('--har is required: the recorded session to replay');
    if (!baseUrl) throw new UsageError('--base-url is required: the service to replay against');
    /** A failed preflight: one line, exit code 2, nothing replayed (as `paysandbox contract`). */
    const stop = (err: unknown) => {
      console.error(`paysandbox replay: preflight failed: ${(err as Error).message}`);
      return 2;
    };
    try {
      assertBaseUrl(baseUrl);
    } catch (err) {
      return stop(err);
    }
    try {
      assertNotProduction(baseUrl, env);
    } catch (err) {
      throw new UsageError(
        (err as Error).message.replace('run the contract suite against', 'replay against'),
      );
    }
    const interval = values['min-interval'] as string | undefined;
    let minIntervalMs: number;
    try {
      minIntervalMs =
        interval === undefined
          ? intFromEnv(env, 'CONTRACT_MIN_INTERVAL_MS', DEFAULT_MIN_INTERVAL_MS)
          : intFromEnv({ '--min-interval': interval }, '--min-interval', DEFAULT_MIN_INTERVAL_MS);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const allowMoney = values['allow-money'] === true || flag(env, 'CONTRACT_ALLOW_MONEY');
    // Loaded here, as for parity: the engine is not for the other commands to pay for.
    const {
      loadEntries,
      operationMatcher,
      authOf,
      junitReport,
      textReport,
      replayAll,
      urlTarget,
      loadSpec,
      learnAccounts,
      moneyGuard,
      responseText,
      apiScope,
    } = await import('../parity/index.js');
    let entries;
    try {
      entries = loadEntries(files.map((f) => resolve(f)));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const spec = loadSpec();
    const matcher = operationMatcher(spec);
    const matched = entries.map((e) => ({
      entry: e.entry,
      op: matcher.match(e.entry.request.method, new URL(e.entry.request.url).pathname),
    }));
    const scope = apiScope(matched);
    // The credentials of the entries replayed (not a CDN's or a page's of a devtools export).
    const modes = new Set(
      matched
        .filter(({ entry, op }) => !scope(entry, op))
        .map(({ entry, op }) => authOf(entry, op)),
    );
    const missing = [...new Set([...modes].flatMap((m) => NEEDS[m] ?? []))].filter((n) => !env[n]);
    if (missing.length)
      throw new UsageError(
        `set ${missing.join(', ')}: the recorded requests authenticate with them`,
      );
    const signer = createHmacSigner({
      apiKey: env.CONTRACT_API_KEY ?? '',
      apiSecret: env.CONTRACT_API_SECRET ?? '',
      nonceStart: env.CONTRACT_NONCE_START,
    });
    const transferTarget = env.CONTRACT_TRANSFER_TARGET ?? '';
    const creds: Credentials = {
      merchantToken: env.CONTRACT_MERCHANT_TOKEN ?? '',
      apiKey: signer.apiKey,
      signer,
      bearer: env.CONTRACT_BEARER_TOKEN ?? '',
      mfaSigner: signer,
      nonBusinessSigner: signer,
      accounts: {},
      customerEmail:
        env.CONTRACT_CUSTOMER_EMAIL || (transferTarget.includes('@') ? transferTarget : ''),
      customerPhone:
        env.CONTRACT_CUSTOMER_PHONE ||
        (/^\+?[\d\s-]{10,15}$/.test(transferTarget) ? transferTarget : ''),
    };
    const paced = pacedFetch(globalThis.fetch, minIntervalMs);
    const target = urlTarget(baseUrl, undefined, paced);
    try {
      creds.accounts = await replayPreflight(target.fetch, {
        base: target.baseUrl,
        modes,
        merchantToken: creds.merchantToken,
        bearer: creds.bearer,
        signer,
      });
    } catch (err) {
      if (err instanceof PreflightError) return stop(err);
      throw err;
    }
    const ids = new Map<string, string>();
    for (const { entry } of entries)
      if (/\/crypto-accounts\/?$/.test(new URL(entry.request.url).pathname))
        learnAccounts(parseRecorded(responseText(entry)), creds.accounts, ids);
    const reference = referenceMaker(newRunId());
    const money = allowMoney
      ? undefined
      : moneyGuard(MONEY_OPERATIONS, `${MONEY_SKIP_REASON} (or --allow-money)`);
    const results = await replayAll(
      entries,
      {
        target,
        creds,
        mapIds: false,
        freshReferences: true,
        parties: true,
        unique: () => reference('replay'),
        ids,
        retry: { ...RETRY_AFTER },
        skip: (entry, op) => scope(entry, op) ?? money?.(entry, op),
      },
      spec,
      { gaps: [], overrides: {} },
    );
    if (values.junit)
      writeFileSync(resolve(values.junit as string), junitReport(results, 'replay'));
    console.log(
      values.json ? JSON.stringify({ results }, null, 2) : textReport(results, { replay: true }),
    );
    return results.some((r) => r.status === 'unexplained' || r.status === 'error') ? 1 : 0;
  },
};
