import { parseCommandArgs, UsageError } from './args.js';
import type { CliCommand } from './command.types.js';
import {
  CONTROL_OPTIONS,
  ControlError,
  controlClient,
  controlTarget,
  runControl,
} from './control-http.js';

const USAGE =
  'clock [advance <duration> | reset] [--workspace ID] [--url BASE] [--control-token T] [--json]';
const HELP = `Usage: paysandbox ${USAGE}

Show or move the clock of a running sandbox (docs/design.md#the-clock), or of one workspace:

  paysandbox clock                              the sandbox time and its offset
  paysandbox clock advance 15m                  move every tenant's time 15 minutes forward
  paysandbox clock advance 15m --workspace ID   move one workspace's time only
  paysandbox clock reset [--workspace ID]       back to zero offset (what expired stays expired)

Moving a clock runs the work it made due at once: invoice expiry, callback retries, settlements,
order steps. Durations: plain seconds (90, 0.5), or numbers with the units d, h, m and s, largest
first, each at most once: 90s, 15m, 2h, 1d, 1h30m, 2d4h, 1.5h. The sandbox moves a clock by at most
366 days at a time.

Options:
  --workspace ID  a workspace's own clock instead of the sandbox's
  --url BASE      the sandbox (default http://127.0.0.1:7070, or PAYSANDBOX_URL)
  --control-token T  X-Sandbox-Token, when the sandbox requires one (or SANDBOX_CONTROL_TOKEN; --token too)
  --json          print the API's answer as JSON

Exit code 0 on success; 1 when the sandbox cannot be reached or refuses (an unknown or deleted
workspace, a move it does not take: its message in one line); 2 on bad usage.`;

interface ClockBody {
  now: string;
  offset_seconds: number;
}

const UNIT_SECONDS: Record<string, number> = { d: 86_400, h: 3600, m: 60, s: 1 };
const NUMBER = String.raw`\d+(?:\.\d+)?`;
const COMPOUND = new RegExp(
  `^(?:(${NUMBER})d)?(?:(${NUMBER})h)?(?:(${NUMBER})m)?(?:(${NUMBER})s)?$`,
);

/**
 * A clock move in seconds: plain seconds (`90`, `0.5`), or numbers with units d, h, m, s, largest
 * first, each at most once (`90s`, `1h30m`, `2d4h`, `1.5h`).
 */
export function clockSeconds(text: string): number {
  if (new RegExp(`^${NUMBER}$`).test(text)) return Number(text);
  const m = COMPOUND.exec(text);
  const parts = m ? m.slice(1) : [];
  if (!parts.some((p) => p !== undefined))
    throw new UsageError(
      `not a duration: "${text}" (plain seconds, or d, h, m, s largest first: 90s, 15m, 1h30m, 2d4h)`,
    );
  return parts.reduce(
    (sum, p, i) => sum + (p === undefined ? 0 : Number(p) * (UNIT_SECONDS['dhms'[i] ?? 's'] ?? 1)),
    0,
  );
}

async function run(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { ...CONTROL_OPTIONS, workspace: { type: 'string' } },
    { positionals: true },
  );
  const v = values as {
    workspace?: string;
    url?: string;
    token?: string;
    'control-token'?: string;
    json?: boolean;
  };
  const [action, duration, ...rest] = positionals;
  if (rest.length) throw new UsageError(`unexpected ${rest.join(' ')}`);
  if (action !== undefined && action !== 'advance' && action !== 'reset') {
    throw new UsageError(
      `unknown clock action "${action}"; use \`clock\`, \`clock advance <duration>\` or \`clock reset\``,
    );
  }
  let seconds: number | undefined;
  if (action === 'advance') {
    if (duration === undefined)
      throw new UsageError('advance by how much? e.g. `paysandbox clock advance 15m`');
    seconds = clockSeconds(duration);
    if (!(seconds > 0)) throw new UsageError('advance by more than 0 seconds');
  } else if (duration !== undefined) {
    throw new UsageError(`unexpected ${duration}`);
  }
  if (v.workspace === '') throw new UsageError('--workspace needs a workspace id');

  const call = controlClient(controlTarget(v, env));
  const prefix = v.workspace
    ? `/_sandbox/workspaces/${encodeURIComponent(v.workspace)}/clock`
    : '/_sandbox/clock';
  let body: ClockBody;
  try {
    body = action
      ? await call<ClockBody>(
          'POST',
          `${prefix}/${action}`,
          action === 'advance' ? { seconds } : {},
        )
      : await call<ClockBody>('GET', prefix);
  } catch (err) {
    if (!(err instanceof ControlError)) throw err;
    if (err.status === 404 && v.workspace)
      throw new ControlError(`no live workspace ${v.workspace}`, 404);
    if (err.status === 400 && action === 'advance')
      throw new ControlError(`advance ${duration} (${seconds} s) refused: ${err.message}`, 400);
    throw err;
  }
  if (v.json) console.log(JSON.stringify(body));
  else
    console.log(
      `${v.workspace ? `workspace ${v.workspace}` : 'sandbox'} clock: ${body.now} (offset ${body.offset_seconds} s)`,
    );
  return 0;
}

/** `paysandbox clock …`: the control API's clock calls, so QA need not write curl. */
export const clockCommand: CliCommand = {
  name: 'clock',
  usage: USAGE,
  summary: "show, advance or reset the sandbox's clock or one workspace's",
  help: HELP,
  run: (args, env) => runControl('clock', () => run(args, env)),
};
