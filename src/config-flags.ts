/**
 * The sandbox's options as the CLI takes them (`--flag`, then `PAYSANDBOX_*` env, then the defaults of
 * src/config.ts) and the parsers of their values.
 */
import { trimEnd } from './shared/trim.js';
import { DEFAULT_MAX_WAITERS, defaultConfig, type AppConfig } from './config.js';

/** Flags override env, env overrides defaults (docs/design.md#around-the-api). */
export const CONFIG_OPTIONS = {
  port: { type: 'string', env: 'PAYSANDBOX_PORT', help: 'Port to listen on (7070)' },
  host: { type: 'string', env: 'PAYSANDBOX_HOST', help: 'Address to listen on (127.0.0.1)' },
  db: {
    type: 'string',
    env: 'PAYSANDBOX_DB',
    help: 'SQLite file, or :memory: (.paysandbox/sandbox.db)',
  },
  fixtures: {
    type: 'string',
    env: 'PAYSANDBOX_FIXTURES',
    help: 'Fixtures JSON (fixtures/sandbox.json)',
  },
  'public-url': {
    type: 'string',
    env: 'PAYSANDBOX_PUBLIC_URL',
    help: 'Base URL used in payment_url (http://<host>:<port>)',
  },
  durability: {
    type: 'string',
    env: 'PAYSANDBOX_DURABILITY',
    help: 'normal (survives kill -9) or full (fsync every commit)',
  },
  'no-debug-errors': {
    type: 'boolean',
    env: 'PAYSANDBOX_NO_DEBUG_ERRORS',
    help: 'Leave sandbox_debug out of error bodies (the sandbox code and signature detail), as the real service sends them',
  },
  'expiry-events': {
    type: 'boolean',
    env: 'PAYSANDBOX_EXPIRY_EVENTS',
    help: 'Send invoice.updated on expiry and cancellation',
  },
  'trust-proxy': {
    type: 'boolean',
    env: 'PAYSANDBOX_TRUST_PROXY',
    help: 'Use X-Forwarded-Proto/Host for signed URLs',
  },
  'control-token': {
    type: 'string',
    env: 'SANDBOX_CONTROL_TOKEN',
    help: 'Require X-Sandbox-Token on /_sandbox',
  },
  'insecure-control': {
    type: 'boolean',
    env: 'PAYSANDBOX_INSECURE_CONTROL',
    help: 'Allow a non-loopback listen without a control token',
  },
  'allowed-hosts': {
    type: 'string',
    env: 'PAYSANDBOX_ALLOWED_HOSTS',
    help: 'Extra Host names for the control API without a token, e.g. sandbox,ci.local (* = any)',
  },
  'retry-schedule': {
    type: 'string',
    env: 'PAYSANDBOX_RETRY_SCHEDULE',
    help: 'Callback retry delays, e.g. 10s,1m,5m',
  },
  'callback-timeout': {
    type: 'string',
    env: 'PAYSANDBOX_CALLBACK_TIMEOUT',
    help: 'Callback timeout, e.g. 10s',
  },
  'block-private-callbacks': {
    type: 'boolean',
    env: 'PAYSANDBOX_BLOCK_PRIVATE_CALLBACKS',
    help: 'Refuse callbacks to private addresses',
  },
  'sellorder-delay': {
    type: 'string',
    env: 'PAYSANDBOX_SELLORDER_DELAY',
    help: 'Seconds before a sell order moves on by itself (60; 0 = never)',
  },
  'transfer-delay': {
    type: 'string',
    env: 'PAYSANDBOX_TRANSFER_DELAY',
    help: 'Seconds before a pending transfer, crypto payment or conversion settles by itself (10; 0 = never)',
  },
  'buyorder-delay': {
    type: 'string',
    env: 'PAYSANDBOX_BUYORDER_DELAY',
    help: 'Seconds from a buy order marked paid to its release (60; 0 = never)',
  },
  quiet: { type: 'boolean', env: 'PAYSANDBOX_QUIET', help: 'No banner, no request log' },
  'log-format': {
    type: 'string',
    env: 'PAYSANDBOX_LOG_FORMAT',
    help: 'Request and callback log: text (colored on a TTY) or json',
  },
  'max-waiters': {
    type: 'string',
    env: 'PAYSANDBOX_MAX_WAITERS',
    help: `Long-polls of /_sandbox/deliveries?wait open at once (${DEFAULT_MAX_WAITERS}); past it 503`,
  },
  'ready-file': {
    type: 'string',
    env: 'PAYSANDBOX_READY_FILE',
    help: 'Write the base URL to this file once ready (removed on exit): CI waits for it',
  },
} as const;

export type ConfigFlag = keyof typeof CONFIG_OPTIONS;

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/;
const DURATION_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** `10s`, `1m`, `2h`, `500ms` or a bare number of seconds → seconds. */
export function parseDuration(text: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new Error(`not a duration: "${text}" (use e.g. 10s, 1m, 2h)`);
  return Number(m[1]) * (DURATION_SECONDS[m[2] ?? 's'] ?? 1);
}

export function configFrom(
  flags: Partial<Record<ConfigFlag, string | boolean>>,
  env: Record<string, string | undefined>,
): AppConfig {
  const get = (name: ConfigFlag): string | boolean | undefined => {
    if (flags[name] !== undefined) return flags[name];
    const e = env[CONFIG_OPTIONS[name].env];
    if (e === undefined || e === '') return undefined;
    return CONFIG_OPTIONS[name].type === 'boolean'
      ? !['0', 'false', 'no'].includes(e.toLowerCase())
      : e;
  };
  const str = (name: ConfigFlag) => get(name) as string | undefined;
  const bool = (name: ConfigFlag) => get(name) === true;
  const portText = str('port');
  const port =
    portText !== undefined ? (/^\d{1,5}$/.test(portText) ? Number(portText) : NaN) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new Error(`--port must be a whole number 0-65535 (0: any free port), got ${str('port')}`);
  const durability = str('durability');
  if (durability !== undefined && durability !== 'normal' && durability !== 'full')
    throw new Error('--durability must be normal or full');
  const logFormat = str('log-format');
  if (logFormat !== undefined && logFormat !== 'text' && logFormat !== 'json')
    throw new Error(`--log-format must be text or json, got ${logFormat}`);
  const maxWaiters = str('max-waiters') !== undefined ? Number(str('max-waiters')) : undefined;
  if (
    maxWaiters !== undefined &&
    !(Number.isInteger(maxWaiters) && maxWaiters >= 1 && maxWaiters <= 100_000)
  ) {
    throw new Error(`--max-waiters must be an integer from 1 to 100000, got ${str('max-waiters')}`);
  }
  /** The option read with `parse`, or `fallback` when it is not given (or, where `emptyIsUnset`, empty). */
  const parsed = <T>(
    name: ConfigFlag,
    parse: (text: string) => T,
    fallback: T,
    emptyIsUnset = false,
  ) => {
    const text = str(name);
    return text === undefined || (emptyIsUnset && text === '') ? fallback : parse(text);
  };
  const overrides: Partial<AppConfig> = {};
  if (port !== undefined) overrides.port = port;
  if (str('host')) overrides.host = str('host');
  const base = defaultConfig(overrides);
  return {
    ...base,
    db: str('db') ?? base.db,
    fixtures: str('fixtures') ?? base.fixtures,
    publicUrl: trimEnd(str('public-url') ?? base.publicUrl, '/'),
    durability: (durability as AppConfig['durability'] | undefined) ?? base.durability,
    debugErrors: !bool('no-debug-errors'),
    expiryEvents: bool('expiry-events'),
    trustProxy: bool('trust-proxy'),
    controlToken: str('control-token') ?? null,
    insecureControl: bool('insecure-control'),
    allowedHosts: parseHostList(str('allowed-hosts')),
    retrySchedule: parsed(
      'retry-schedule',
      (text) => text.split(',').map(parseDuration),
      base.retrySchedule,
      true,
    ),
    callbackTimeoutMs: parsed(
      'callback-timeout',
      (text) => parseDuration(text) * 1000,
      base.callbackTimeoutMs,
      true,
    ),
    blockPrivateCallbacks: bool('block-private-callbacks'),
    sellOrderAutoAdvanceSeconds: parsed(
      'sellorder-delay',
      parseDuration,
      base.sellOrderAutoAdvanceSeconds,
    ),
    transferSettleSeconds: parsed('transfer-delay', parseDuration, base.transferSettleSeconds),
    buyOrderReleaseSeconds: parsed('buyorder-delay', parseDuration, base.buyOrderReleaseSeconds),
    quiet: bool('quiet'),
    logFormat: (logFormat as AppConfig['logFormat'] | undefined) ?? base.logFormat,
    maxWaiters: maxWaiters ?? base.maxWaiters,
  };
}

/** `a.example, [::1],B.example` → host names as URLs spell them (lowercase, IPv6 in brackets). */
export function parseHostList(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
    .map((h) => {
      if (h === '*') return h;
      try {
        return new URL(`http://${h}`).hostname;
      } catch {
        throw new Error(`--allowed-hosts: "${h}" is not a host name`);
      }
    });
}
