import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Resolve a host name to every address it has (injectable so tests need no DNS). */
export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

// Loopback, private, link-local, shared (CGNAT), benchmark, multicast and reserved ranges: none of
// them is a merchant on the internet (sandbox.md §7, `--block-private-callbacks`).
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted quad allowed at the end). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, quad.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

/** The IPv4 address carried by an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`) address. */
function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return null;
  return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
}

/** True for loopback, private, link-local and other non-public addresses (IPv4 or IPv6). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  const v4 = embeddedIPv4(address);
  if (v4) return blocked.check(v4, 'ipv4');
  return blocked.check(address.split('%')[0]!, 'ipv6');
}

/**
 * Why a callback may not be sent to `url`, or null when it may: only http and https, and with
 * `blockPrivate` no address the host resolves to may be loopback, private or link-local (all of them
 * are checked, so a name with one public and one private address is refused).
 */
export async function callbackTargetProblem(url: string, opts: { blockPrivate: boolean; lookup: Lookup }): Promise<string | null> {
  const parsed = parseTarget(url);
  if (typeof parsed === 'string') return parsed;
  if (!opts.blockPrivate) return null;
  return addressProblem(parsed, opts.lookup);
}

/**
 * The part of `callbackTargetProblem` that depends on the URL alone (scheme, credentials): the whole
 * check when private targets are allowed, so the dispatcher can remember it per URL.
 */
export function callbackUrlProblem(url: string): string | null {
  const parsed = parseTarget(url);
  return typeof parsed === 'string' ? parsed : null;
}

function parseTarget(url: string): URL | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `callback_url "${url}" is not a valid URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `only http and https callback URLs are allowed (got "${parsed.protocol}")`;
  }
  if (parsed.username || parsed.password) return 'callback URLs with credentials in them are not allowed';
  return parsed;
}

async function addressProblem(parsed: URL, lookup: Lookup): Promise<string | null> {
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host)).map((a) => a.address);
    } catch (err) {
      return `DNS lookup of ${host} failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
    if (!addresses.length) return `DNS lookup of ${host} returned no address`;
  }
  const refused = addresses.filter(isPrivateAddress);
  if (refused.length) {
    return `refused by --block-private-callbacks: ${host} resolves to ${refused.join(', ')} (loopback, private or link-local)`;
  }
  return null;
}
