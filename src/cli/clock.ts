import { parseDuration } from '../config-flags.js';
import { parseCommandArgs, UsageError } from './args.js';
import type { CliCommand } from './command.types.js';
import { controlTarget } from './control-http.js';

const USAGE =
  'clock [advance <duration> | reset] [--workspace ID] [--url BASE] [--control-token T] [--json]';
const HELP = `Usage: paysandbox ${USAGE}

Show or move the clock of a running sandbox (docs/design.md#the-clock), or of one workspace:

  paysandbox clock                              the sandbox time and its offset
  paysandbox clock advance 15m                  move every tenant's time 15 minutes forward
  paysandbox clock advance 15m --workspace ID   move one workspace's time only
  paysandbox clock reset [--workspace ID]       back to zero offset (what expired stays expired)

Moving a clock runs the work it made due at once: invoice expiry, callback retries, settlements,
order steps. Durations: 90s, 15m, 2h, 1d (or plain seconds).

Options:
  --workspace ID  a workspace's own clock instead of the sandbox's
  --url BASE      the sandbox (default http://127.0.0.1:7070, or PAYSANDBOX_URL)
  --control-token T  X-Sandbox-Token, when the sandbox requires one (or SANDBOX_CONTROL_TOKEN; --token too)
  --json          print the API's answer as JSON

Exit code 0 on success; 1 when the sandbox refuses (an unknown or deleted workspace); 2 on bad usage.`;

interface ClockBody {
  now: string;
  offset_seconds: number;
}

/** `paysandbox clock …`: the control API's clock calls, so QA need not write curl. */
export const clockCommand: CliCommand = {
  name: 'clock',
  usage: USAGE,
  summary: "show, advance or reset the sandbox's clock or one workspace's",
  help: HELP,
  async run(args, env) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        workspace: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        'control-token': { type: 'string' },
        json: { type: 'boolean' },
      },
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
      try {
        seconds = /^\d+(\.\d+)?$/.test(duration) ? Number(duration) : parseDuration(duration);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (!(seconds > 0)) throw new UsageError('advance by more than 0 seconds');
    } else if (duration !== undefined) {
      throw new UsageError(`unexpected ${duration}`);
    }
    if (v.workspace === '') throw new UsageError('--workspace needs a workspace id');

    const { base, token } = controlTarget(v, env);
    const prefix = v.workspace
      ? `/_sandbox/workspaces/${encodeURIComponent(v.workspace)}/clock`
      : '/_sandbox/clock';
    const path = action ? `${prefix}/${action}` : prefix;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers['x-sandbox-token'] = token;
    if (action) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method: action ? 'POST' : 'GET',
        headers,
        body:
          action === 'advance'
            ? JSON.stringify({ seconds })
            : action === 'reset'
              ? '{}'
              : undefined,
      });
    } catch (err) {
      const cause =
        (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      console.error(
        `paysandbox clock: cannot reach the sandbox at ${base} (${cause}); is \`paysandbox start\` running? (--url BASE)`,
      );
      return 1;
    }
    const text = await res.text();
    if (res.status !== 200) {
      const what =
        res.status === 404 && v.workspace
          ? `no live workspace ${v.workspace}`
          : `${res.status} ${text.slice(0, 300)}`;
      console.error(`paysandbox clock: ${what}`);
      return 1;
    }
    const body = JSON.parse(text) as ClockBody;
    if (v.json) console.log(JSON.stringify(body));
    else
      console.log(
        `${v.workspace ? `workspace ${v.workspace}` : 'sandbox'} clock: ${body.now} (offset ${body.offset_seconds} s)`,
      );
    return 0;
  },
};
