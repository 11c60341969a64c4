/**
 * Which IP addresses a request from this service may connect to. An allow-list, not a deny-list:
 * an IPv4 address passes only when ipaddr.js calls it ordinary `unicast`, an IPv6 address only when
 * it is global unicast (2000::/3) and in no special range. Everything else (loopback, private,
 * link-local, CGNAT, multicast, reserved, documentation, benchmarking, unspecified, ...) is refused.
 * IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are judged by the
 * IPv4 address they carry, since that is where the packets end up.
 */
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: AddressVerdict = { allowed: true };
const refuse = (reason: string): AddressVerdict => ({ allowed: false, reason });

/** Strict dotted-quad / IPv6 text (what a resolver returns); WHATWG URL hosts arrive in this form. */
export const isIpLiteral = (s: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(s) || ipaddr.IPv6.isValid(s);

const v4FromBits = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

function classifyV4(ip: ipaddr.IPv4): AddressVerdict {
  const range = ip.range();
  return range === 'unicast' ? ALLOWED : refuse(range);
}

function classifyV6(ip: ipaddr.IPv6): AddressVerdict {
  const p = ip.parts as number[];
  const range = ip.range();
  const embedded = (label: string, v4: ipaddr.IPv4): AddressVerdict => {
    const inner = classifyV4(v4);
    return inner.allowed ? ALLOWED : refuse(`${label} ${v4.toString()} (${inner.reason})`);
  };
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (SIIT)
      return embedded('IPv4-mapped', v4FromBits(p[6]!, p[7]!));
    case 'rfc6052': // 64:ff9b::/96 well-known NAT64; 64:ff9b:1::/48 is local-use only
      if (p[2] === 1) return refuse('local-use NAT64 (64:ff9b:1::/48)');
      return embedded('NAT64', v4FromBits(p[6]!, p[7]!));
    case '6to4': // 2002:AABB:CCDD::/48 routes to AA.BB.CC.DD
      return embedded('6to4', v4FromBits(p[1]!, p[2]!));
    case 'teredo': {
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC; the client address is stored inverted
      const server = embedded('Teredo server', v4FromBits(p[2]!, p[3]!));
      if (!server.allowed) return server;
      return embedded('Teredo client', v4FromBits(~p[6]! & 0xffff, ~p[7]! & 0xffff));
    }
    case 'unicast':
      break;
    default:
      return refuse(range);
  }
  // ::a.b.c.d, the deprecated IPv4-compatible form (:: and ::1 were caught above). ipaddr.js
  // parses the dotted spelling `::a.b.c.d` as IPv4-mapped; both end up judged by the IPv4 inside.
  if (p.slice(0, 6).every((x) => x === 0)) return embedded('IPv4-compatible', v4FromBits(p[6]!, p[7]!));
  // Only global unicast is routable on the Internet; ipaddr.js calls all unassigned space `unicast`.
  if ((p[0]! & 0xe000) !== 0x2000) return refuse('not global unicast (outside 2000::/3)');
  return ALLOWED;
}

/** Judges one address as a resolver or a URL gives it: dotted IPv4 or IPv6 text, zone id allowed. */
export function classifyAddress(address: string): AddressVerdict {
  let text = address.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  // A zone id (fe80::1%eth0) only means something on a local link.
  if (text.includes('%')) return refuse('zoned (link-local) address');
  if (!isIpLiteral(text)) return refuse('not an IP address');
  const ip = ipaddr.parse(text);
  return ip.kind() === 'ipv4' ? classifyV4(ip as ipaddr.IPv4) : classifyV6(ip as ipaddr.IPv6);
}
