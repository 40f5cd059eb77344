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

/** A listen host that only this machine can reach: `localhost`, 127.0.0.0/8 or ::1 (parsed, not prefix-matched). */
export function isLoopback(host: string): boolean {
  return isLoopbackHost(host);
}
