import type { Durability } from './db/open.js';
import { isLoopbackHost } from './shared/ip-address.js';
import { selfUrl } from './shared/sandbox-url.js';

/** Everything the sandbox can be told. `main.ts`/the CLI fill it from flags, then env, then defaults. */
export interface AppConfig {
  port: number;
  host: string;
  db: string;
  fixtures: string;
  publicUrl: string;
  /**
   * Where the sandbox reaches itself (http://127.0.0.1:<the port it listens on>): its own callbacks to
   * the example receiver go here. Set by `listen` once the port is known.
   */
  internalUrl: string;
  durability: Durability;
  /** `sandbox_debug` on signature mismatches (on by default). */
  debugErrors: boolean;
  /** Emit `invoice.updated` on expiry and cancellation (the real service sends none). */
  expiryEvents: boolean;
  /** Read scheme and host for HMAC URLs from X-Forwarded-Proto/X-Forwarded-Host. */
  trustProxy: boolean;
  controlToken: string | null;
  insecureControl: boolean;
  /**
   * Host names the control API also answers without a control token, besides loopback names and the
   * public URL's host (DNS-rebinding defence); `*` for any.
   */
  allowedHosts: string[];
  /** Callback retry delays in seconds. */
  retrySchedule: number[];
  callbackTimeoutMs: number;
  blockPrivateCallbacks: boolean;
  /** Seconds on the sandbox clock before a sell order moves on by itself (0 = only by the control API). */
  sellOrderAutoAdvanceSeconds: number;
  /** Seconds on the sandbox clock before a pending transfer settles by itself (0 = only by the control API). */
  transferSettleSeconds: number;
  /** Seconds on the sandbox clock from a buy order marked paid to its release (0 = only by the control API). */
  buyOrderReleaseSeconds: number;
  quiet: boolean;
  /** The terminal log of requests and callback attempts: text lines or JSON objects. */
  logFormat: 'text' | 'json';
  /** Long-polls (`GET /_sandbox/deliveries?wait=N`) open at once; one more is a 503 with Retry-After. */
  maxWaiters: number;
}

export const DEFAULT_MAX_WAITERS = 256;

/**
 * The base URL the server prints and puts in links when no public URL is given. A wildcard address
 * (0.0.0.0, ::) is where it listens, not where anyone can reach it: in Docker, `-p 7070:7070` makes
 * `http://localhost:7070` work from the host while `http://0.0.0.0:7070` does not, so print localhost.
 *
 * @example
 * listeningUrl('0.0.0.0', 7070); // 'http://localhost:7070'
 * listeningUrl('::1', 7070);     // 'http://[::1]:7070'
 */
export function listeningUrl(host: string, port: number): string {
  const h = host.trim();
  if (h === '' || h === '0.0.0.0' || h === '::' || h === '[::]' || h === '::0')
    return `http://localhost:${port}`;
  return `http://${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}:${port}`;
}

export const DEFAULT_RETRY_SCHEDULE = [10, 60, 300, 1800, 7200, 21600, 43200, 86400];

export function defaultConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const port = overrides.port ?? 7070;
  const host = overrides.host ?? '127.0.0.1';
  return {
    port,
    host,
    db: '.paysandbox/sandbox.db',
    fixtures: '',
    publicUrl: listeningUrl(host, port),
    internalUrl: selfUrl(host, port),
    durability: 'normal',
    debugErrors: true,
    expiryEvents: false,
    trustProxy: false,
    controlToken: null,
    insecureControl: false,
    allowedHosts: [],
    retrySchedule: DEFAULT_RETRY_SCHEDULE,
    callbackTimeoutMs: 10_000,
    blockPrivateCallbacks: false,
    sellOrderAutoAdvanceSeconds: 60,
    transferSettleSeconds: 10,
    buyOrderReleaseSeconds: 60,
    quiet: false,
    logFormat: 'text',
    maxWaiters: DEFAULT_MAX_WAITERS,
    ...overrides,
  };
}

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
  const port = str('port') !== undefined ? Number(str('port')) : undefined;
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
    publicUrl: (str('public-url') ?? base.publicUrl).replace(/\/+$/, ''),
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

/** A listen host that only this machine can reach: `localhost`, 127.0.0.0/8 or ::1 (parsed, not prefix-matched). */
export function isLoopback(host: string): boolean {
  return isLoopbackHost(host);
}
