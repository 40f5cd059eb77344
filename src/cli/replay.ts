import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createHmacSigner } from '../client/hmac.signer.js';
import type { Credentials } from '../parity/target.js';
import { parseCommandArgs, UsageError } from './args.js';
import type { CliCommand } from './command.types.js';
import { assertNotProduction } from './production-guard.js';

const USAGE = 'replay --har FILE --base-url URL [--junit FILE] [--json]';

const HELP = `Usage: paysandbox ${USAGE}

Replay what your code sent (a HAR file, e.g. recorded against the sandbox with
paysandbox record --upstream http://127.0.0.1:7070) against another service, re-authenticated with its
credentials, and compare its answers with the recorded ones, as paysandbox parity does: status, keys,
types, formats, enum values. Credentials come from the environment of the contract suite:
CONTRACT_API_KEY and CONTRACT_API_SECRET (HMAC, fresh nonces; CONTRACT_NONCE_START), CONTRACT_MERCHANT_TOKEN
(Token), CONTRACT_BEARER_TOKEN (OAuth2) — only those the recorded requests use. Production hosts are
refused (CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1 to force). Exit code 0 when every answer has the recorded
shape, 1 when one differs, 2 on bad usage or missing credentials.`;

const NEEDS: Record<string, string[]> = {
  hmac: ['CONTRACT_API_KEY', 'CONTRACT_API_SECRET'],
  token: ['CONTRACT_MERCHANT_TOKEN'],
  bearer: ['CONTRACT_BEARER_TOKEN'],
};

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
    });
    const files = (values.har as unknown as string[] | undefined) ?? [];
    const baseUrl = values['base-url'] as string | undefined;
    if (!files.length) throw new UsageError('--har is required: the recorded session to replay');
    if (!baseUrl) throw new UsageError('--base-url is required: the service to replay against');
    try {
      assertNotProduction(baseUrl, env);
    } catch (err) {
      throw new UsageError(
        (err as Error).message.replace('run the contract suite against', 'replay against'),
      );
    }
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
    } = await import('../parity/index.js');
    let entries;
    try {
      entries = loadEntries(files.map((f) => resolve(f)));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const spec = loadSpec();
    const matcher = operationMatcher(spec);
    const modes = new Set(
      entries.map((e) =>
        authOf(
          e.entry,
          matcher.match(e.entry.request.method, new URL(e.entry.request.url).pathname),
        ),
      ),
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
    const creds: Credentials = {
      merchantToken: env.CONTRACT_MERCHANT_TOKEN ?? '',
      apiKey: signer.apiKey,
      signer,
      bearer: env.CONTRACT_BEARER_TOKEN ?? '',
      mfaSigner: signer,
      nonBusinessSigner: signer,
      accounts: {},
      customerEmail: '',
      customerPhone: '',
    };
    const target = urlTarget(baseUrl);
    const results = await replayAll(
      entries,
      { target, creds, mapIds: false, unique: () => '', ids: new Map() },
      spec,
      { gaps: [], overrides: {} },
    );
    if (values.junit)
      writeFileSync(resolve(values.junit as string), junitReport(results, 'replay'));
    console.log(values.json ? JSON.stringify({ results }, null, 2) : textReport(results));
    return results.some((r) => r.status === 'unexplained' || r.status === 'error') ? 1 : 0;
  },
};
