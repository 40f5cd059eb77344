import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { configFrom, type ConfigFlag } from '../config-flags.js';
import { DatabasePathError } from '../db/open.js';
import { FixturesFileError } from '../fixtures/load.js';
import { createSandbox, type Sandbox } from '../sandbox.js';
import { UsageError } from './args.js';
import { ControlTokenRequiredError, listen, type RunningServer } from '../server.js';
import { createServerLog, wantsColor } from './server-log.js';
import { formatMoneyShort, UNITS_PER_PESO } from '../shared/money.js';

/** A customer below this is labelled as the one for insufficient-balance tests (the fixtures have one at 25 PHP). */
const LOW_BALANCE_PHP = 1000n;

/** One banner line per app: its newest live OAuth2 token (a database kept from an earlier run may have some), or how to issue one. */
function oauthLine(sandbox: Sandbox, url: string, apiKey: string): string {
  const live = sandbox.modules.identities.api.appTokens.live(apiKey, sandbox.services.clock.now());
  const issue = `POST ${url}/_sandbox/apps/${apiKey}/tokens`;
  const newest = live.at(-1);
  return newest
    ? `    oauth2     Bearer ${newest.access_token}${live.length > 1 ? ` (+${live.length - 1} more)` : ''}   (another: ${issue})`
    : `    oauth2     Authorization: Bearer <token> instead of HMAC; issue one: ${issue}`;
}

/** The start-up banner: base URL, dashboard, and every fixture credential (docs/design.md#identities). */
export function banner(sandbox: Sandbox, url: string, startupMs: number): string {
  const s = { identities: sandbox.modules.identities.api, ledger: sandbox.modules.ledger.api };
  const lines = [
    `paysandbox listening on ${url}  (ready in ${startupMs.toFixed(0)} ms)`,
    `  dashboard      ${url}/_sandbox/`,
    `  API reference  ${url}/docs   (document: ${url}/openapi.yaml)`,
    `  database       ${sandbox.config.db}${sandbox.config.durability === 'full' ? ' (durability full)' : ''}`,
    '',
    'Merchants (Authorization: Token <merchant_api_token> | Bearer <bearer_token>):',
  ];
  // Fixture order, first one first: the one the README and the trigger use is the one to start with.
  for (const [i, m] of s.identities
    .merchantsPage(100, 0)
    .filter((x) => !x.workspace_id)
    .entries()) {
    lines.push(
      `  ${m.name}${i === 0 ? '   (start here: the README examples and the trigger use it)' : ''}`,
      `    merchant_api_token ${m.merchant_api_token}`,
      `    bearer_token       ${m.bearer_token ?? '-'}`,
    );
    // Where its callbacks go, when that is the sandbox's own example receiver (a path, resolved here).
    if (m.callback_url?.startsWith('/'))
      lines.push(
        `    callbacks          ${url}${m.callback_url}  (the example receiver: GET ${url}/_sandbox/inbox)`,
      );
  }
  lines.push('', 'HMAC applications (ACCESS_KEY / secret):');
  for (const [i, a] of s.identities
    .appsPage(100, 0)
    .filter((x) => !x.workspace_id)
    .entries()) {
    const label = a.mfa_whitelisted
      ? `   (${i === 0 ? 'start here: ' : ''}whitelisted, no OTP needed)`
      : '   (OTP app: sell orders and transfers need a one-time code)';
    lines.push(
      `  ${a.name}${label}`,
      `    api_key    ${a.api_key}`,
      `    api_secret ${a.api_secret}`,
      `    otp_secret ${a.otp_secret}${a.mfa_whitelisted ? '' : ` (code now: GET ${url}/_sandbox/apps/${a.api_key}/otp)`}`,
      oauthLine(sandbox, url, a.api_key),
    );
  }
  lines.push('', 'Customers (hosted payment page wallet login):');
  for (const [i, c] of s.identities
    .customersPage(100, 0)
    .filter((x) => !x.workspace_id)
    .entries()) {
    const php = s.ledger.byOwner('user', c.id).find((a) => a.currency === 'PHP');
    const balance = php?.balance ?? 0n;
    const low =
      balance < LOW_BALANCE_PHP * UNITS_PER_PESO
        ? '  (low balance: for "insufficient balance" tests)'
        : i === 0
          ? '  (start here: pays when no customer is named)'
          : '';
    lines.push(
      `  ${c.email} / ${c.password}   (${c.mobile_number}, ${formatMoneyShort(balance)} PHP)${low}`,
    );
  }
  if (sandbox.config.controlToken) lines.push('', 'Control API requires header X-Sandbox-Token.');
  return lines.join('\n');
}

/**
 * A full GC once the old generation has grown 25% over what the last one kept, instead of letting a
 * small heap grow up to about 4× first (V8's default): the server keeps ~20 MB alive, and under
 * sustained writes its RSS otherwise climbs past 200 MB of mostly garbage (docs/benchmarks.md).
 * The flag is read at every GC, so setting it here takes effect; a value given on the command line
 * or in NODE_OPTIONS wins.
 */
function boundHeapGrowth(env: Record<string, string | undefined>): void {
  if ([...process.execArgv, env.NODE_OPTIONS ?? ''].some((a) => a.includes('heap-growing-percent')))
    return;
  setFlagsFromString('--heap-growing-percent=25');
}

/** A port that cannot be listened on, said in one line with the way out (exit 2), or undefined. */
export function portProblem(
  err: { code?: string },
  host: string,
  port: number,
): UsageError | undefined {
  const where = `port ${port} on ${host}`;
  if (err.code === 'EADDRINUSE') {
    return new UsageError(
      `${where} is already in use (another paysandbox?); choose another with --port N, or --port 0 for any free port`,
    );
  }
  if (err.code === 'EACCES')
    return new UsageError(
      `${where} needs privileges here; choose --port 1024 or above, or --port 0 for any free port`,
    );
  if (err.code === 'EADDRNOTAVAIL')
    return new UsageError(
      `${host} is not an address of this machine; choose another with --host (127.0.0.1 by default)`,
    );
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' || err.code === 'EAI_NONAME')
    return new UsageError(
      `${host} is not a host name or address this machine can listen on; choose another with --host (127.0.0.1 by default)`,
    );
  return undefined;
}

/**
 * `--ready-file`: the base URL and a newline, written once the server answers (a CI step waits for the
 * file instead of polling /healthz). Written beside, then renamed, so a reader never sees half of it.
 */
function writeReadyFile(file: string, url: string): void {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${url}\n`);
    renameSync(tmp, file);
  } catch (err) {
    throw new UsageError(
      `cannot write the ready file ${file} (${(err as { code?: string }).code ?? (err as Error).message}); choose a writable path with --ready-file`,
    );
  }
}

/** Whether the port can be listened on, asked before the sandbox is built (a busy port is said at once). */
function probePort(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: Error & { code?: string }) =>
      reject(portProblem(err, host, port) ?? err),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

export async function startCommand(
  flags: Partial<Record<ConfigFlag, string | boolean>>,
  env: Record<string, string | undefined>,
): Promise<{ sandbox: Sandbox; server: RunningServer }> {
  const t0 = performance.now();
  boundHeapGrowth(env);
  const config = configFrom(flags, env);
  const readyFile =
    (flags['ready-file'] as string | undefined) ?? (env.PAYSANDBOX_READY_FILE || undefined);
  // A ready file left by an earlier run must not announce this one before it is up (or if it fails).
  if (readyFile) rmSync(readyFile, { force: true });
  await probePort(config.host, config.port);
  const publicUrlGiven = flags['public-url'] !== undefined || Boolean(env.PAYSANDBOX_PUBLIC_URL);
  let sandbox: Sandbox;
  try {
    sandbox = createSandbox({ config });
  } catch (err) {
    // A database path that cannot be used is bad usage: one line naming it and the way out, exit 2.
    if (err instanceof DatabasePathError || err instanceof FixturesFileError)
      throw new UsageError(err.message);
    throw err;
  }
  if (!config.quiet) {
    // A line per request and per callback attempt (--quiet: none, and nothing extra per request).
    const log = createServerLog({
      format: config.logFormat,
      color: wantsColor(process.stdout, env),
      write: (line) => process.stdout.write(`${line}\n`),
    });
    sandbox.requestLog.setTap(log.request);
    sandbox.modules.callbacks.api.onAttempt(log.attempt);
  }
  const server = await listen(sandbox).catch(async (err: Error & { code?: string }) => {
    await sandbox.close();
    if (err instanceof ControlTokenRequiredError) throw new UsageError(err.message);
    throw portProblem(err, config.host, config.port) ?? err;
  });
  if (!publicUrlGiven) sandbox.config.publicUrl = server.url;
  sandbox.startBackground();
  // Handlers go in before the banner: whoever waits for the banner may signal at once.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    if (!config.quiet)
      (config.logFormat === 'json' ? console.error : console.log)(
        `\n${signal}: closing the database and stopping.`,
      );
    sandbox.modules.callbacks.api.streams.closeAll(); // listeners get a last `close` message, not a cut
    await server.stop();
    await sandbox.close();
    process.exit(0);
  };
  if (readyFile) writeReadyFile(readyFile, server.url);
  process.once('exit', () => readyFile && rmSync(readyFile, { force: true }));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  const startupMs = performance.now() - t0;
  const text = banner(sandbox, server.url, startupMs);
  if (config.quiet) console.log(text.split('\n')[0]);
  else if (config.logFormat === 'json') {
    // stdout is for machines then: one JSON object per line; the human banner goes to stderr.
    console.error(text);
    console.log(
      JSON.stringify({
        type: 'listening',
        at: new Date().toISOString(),
        url: server.url,
        dashboard: `${server.url}/_sandbox/`,
        database: config.db,
        ready_ms: Math.round(startupMs),
      }),
    );
  } else console.log(text);
  return { sandbox, server };
}
