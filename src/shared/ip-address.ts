import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { itemAt } from './defined.js';

/**
 * IP address classification with ipaddr.js, for the loopback checks (listen host, control API Host)
 * and the private-callback guard. Only strict dotted-quad IPv4 and RFC 4291 IPv6 text counts as an
 * address (node:net `isIP`): ipaddr.js alone would also read `127.1` or `0x7f.1`, which no listener
 * or resolver hands us and which would only blur the rules.
 */

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

/** `[::1]` → `::1`; zone ids (`fe80::1%eth0`) are kept, ipaddr.js reads them. */
const unbracket = (host: string) =>
  host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;

function parse(address: string): Parsed | null {
  const text = unbracket(address);
  if (!isIP(text)) return null;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

/**
 * The IPv4 address an IPv6 address carries and that a packet to it would in effect reach: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated
 * but still routed by some stacks), NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`) and 6to4 (`2002:AABB:CCDD::`).
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = (i: number) => itemAt(ip.parts, i); // always eight 16-bit parts
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  switch (ip.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return v4(p(6), p(7));
    case '6to4':
      return v4(p(1), p(2));
    default:
      // ::/96 other than :: and ::1 themselves: IPv4-compatible.
      if (ip.parts.slice(0, 6).every((x) => x === 0) && (p(6) !== 0 || p(7) > 1))
        return v4(p(6), p(7));
      return null;
  }
}

/**
 * The range ipaddr.js gives the address, after unwrapping an embedded IPv4 address: `unicast` for a
 * public address, else `loopback`, `private`, `linkLocal`, `uniqueLocal`, `reserved`, … Null when the
 * text is not an IP address.
 */
export function addressRange(address: string): string | null {
  const ip = parse(address);
  if (!ip) return null;
  if (ip.kind() === 'ipv6') {
    const v4 = embeddedIPv4(ip as ipaddr.IPv6);
    if (v4) return v4.range();
  }
  return ip.range();
}

/** Only public unicast addresses are "public": everything else (and any non-address) is not. */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/**
 * A real loopback host: `localhost`, an address in 127.0.0.0/8, or ::1 (also bracketed, or IPv4-mapped).
 * `127.x.evil` is a name, not an address, and is not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === 'localhost.') return true;
  return addressRange(h) === 'loopback';
}
