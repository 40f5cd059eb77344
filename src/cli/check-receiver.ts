import { parseDuration } from '../config-flags.js';
import { formatReport } from '../receiver-check/receiver-check.report.js';
import {
  checkReceiver,
  DEFAULT_TIMEOUT_MS,
  type ReceiverCheckOptions,
} from '../receiver-check/receiver-check.service.js';
import { parseCommandArgs } from './args.js';
import type { CliCommand } from './command.types.js';

const USAGE = 'check-receiver --url URL --token T [--timeout 10s] [--json]';

/** Where the command writes; the console by default, captured in tests. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const consoleOutput: CliOutput = { out: (t) => console.log(t), err: (t) => console.error(t) };

type Parsed =
  { ok: true; options: ReceiverCheckOptions; json: boolean } | { ok: false; message: string };

function parse(args: string[], env: Record<string, string | undefined>): Parsed {
  let values: { url?: string; token?: string; timeout?: string; json?: boolean };
  try {
    ({ values } = parseCommandArgs(args, {
      url: { type: 'string' },
      token: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
    }));
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  if (!values.url)
    return {
      ok: false,
      message:
        "--url is required: the merchant's callback URL, e.g. http://127.0.0.1:4040/callbacks",
    };
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    return { ok: false, message: `--url is not a URL: "${values.url}"` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      message: `--url must be an http or https URL (callbacks are HTTP POSTs), got "${url.protocol}"`,
    };
  }
  // The env variable keeps the token out of shell history; the example receiver reads the same one.
  const token = values.token ?? env.MERCHANT_API_TOKEN;
  if (!token)
    return {
      ok: false,
      message:
        '--token is required: the merchant_api_token the handler expects (or set MERCHANT_API_TOKEN)',
    };
  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (values.timeout !== undefined) {
    try {
      timeoutMs = parseDuration(values.timeout) * 1000;
    } catch (err) {
      return { ok: false, message: `--timeout: ${(err as Error).message}` };
    }
    if (!(timeoutMs > 0)) return { ok: false, message: '--timeout must be more than 0' };
  }
  return { ok: true, options: { url: values.url, token, timeoutMs }, json: values.json === true };
}

/**
 * `paysandbox check-receiver`: grade a merchant's callback handler (docs/design.md#around-the-api) and print the
 * report, or JSON with --json. Exit code 0 when no check failed, 1 when one did, 2 on bad usage.
 */
export async function runCheckReceiver(
  args: string[],
  env: Record<string, string | undefined>,
  output: CliOutput = consoleOutput,
  overrides: Pick<ReceiverCheckOptions, 'slowMs' | 'fetch'> = {},
): Promise<number> {
  const parsed = parse(args, env);
  if (!parsed.ok) {
    output.err(`paysandbox check-receiver: ${parsed.message} (usage: paysandbox ${USAGE})`);
    return 2;
  }
  // The run can take up to a timeout per request against a hanging handler: say so before waiting.
  if (!parsed.json)
    output.err(
      `check-receiver: sending synthetic test callbacks to ${parsed.options.url} (timeout ${parsed.options.timeoutMs} ms each)…`,
    );
  const report = await checkReceiver({ ...parsed.options, ...overrides });
  output.out(parsed.json ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.passed ? 0 : 1;
}

export const checkReceiverCommand: CliCommand = {
  name: 'check-receiver',
  usage: USAGE,
  summary: "grade a merchant's callback handler (auth, duplicates, order, speed)",
  help: `Usage: paysandbox ${USAGE}

Send a merchant's callback handler what the sandbox and the real service send (a valid event, a
duplicate, out-of-order events, no token, a wrong token), time the answers and print a report.
--token defaults to MERCHANT_API_TOKEN. Exit code 0 when no check failed, 1 when one did, 2 on bad usage.`,
  run: (args, env) => runCheckReceiver(args, env),
};
