import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress } from '../shared/ip-address.js';

/** Resolve a host name to every address it has (injectable so tests need no DNS). */
export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** True for any address that is not public unicast (loopback, private, link-local, reserved, …, and non-addresses). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** The address a checked callback must connect to (resolved once, checked, then used as is). */
export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/** What the guard decided: a refusal, or go (with the very address to connect to when a name was resolved). */
export type TargetCheck = { problem: string } | { problem: null; pinned?: PinnedAddress };

/**
 * Why a callback may not be sent to `url`, or null when it may: only http and https, and with
 * `blockPrivate` no address the host resolves to may be loopback, private or link-local (all of them
 * are checked, so a name with one public and one private address is refused).
 */
export async function callbackTargetProblem(
  url: string,
  opts: { blockPrivate: boolean; lookup: Lookup },
): Promise<string | null> {
  return (await checkCallbackTarget(url, opts)).problem;
}

/**
 * `callbackTargetProblem`, plus the address to connect to: with `blockPrivate` a name is resolved once
 * here, every address checked, and the first one returned so that the connection goes to exactly
 * that address (a DNS answer that changes between the check and the connection cannot slip a
 * private address in).
 */
export async function checkCallbackTarget(
  url: string,
  opts: { blockPrivate: boolean; lookup: Lookup },
): Promise<TargetCheck> {
  const parsed = parseTarget(url);
  if (typeof parsed === 'string') return { problem: parsed };
  if (!opts.blockPrivate) return { problem: null };
  return checkAddresses(parsed, opts.lookup);
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
  if (parsed.username || parsed.password)
    return 'callback URLs with credentials in them are not allowed';
  return parsed;
}

async function checkAddresses(parsed: URL, lookup: Lookup): Promise<TargetCheck> {
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host) !== 0;
  let addresses: string[];
  if (literal) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host)).map((a) => a.address);
    } catch (err) {
      return {
        problem: `DNS lookup of ${host} failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      };
    }
    if (!addresses.length) return { problem: `DNS lookup of ${host} returned no address` };
  }
  const refused = addresses.filter(isPrivateAddress);
  if (refused.length) {
    return {
      problem: `refused by --block-private-callbacks: ${host} resolves to ${refused.join(', ')} (loopback, private or link-local)`,
    };
  }
  // An IP literal is connected to as written; a name is pinned to the address just checked.
  if (literal) return { problem: null };
  const address = addresses[0]!;
  return { problem: null, pinned: { address, family: isIP(address) === 6 ? 6 : 4 } };
}
