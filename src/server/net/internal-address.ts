import net, { BlockList } from 'node:net';

/** IPv4 ranges no user-set connection may reach. */
const INTERNAL_V4 = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  INTERNAL_V4.addSubnet(address, prefix, 'ipv4');
}

/** IPv6 ranges internal in themselves (those that carry an IPv4 address are judged by it, below). */
const INTERNAL_V6 = new BlockList();
for (const [address, prefix] of [
  ['64:ff9b:1::', 48], // local-use NAT64: translated to whatever the operator's network holds
  ['100::', 64], // discard-only
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 among them)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local, deprecated but still routed by some networks
  ['ff00::', 8], // multicast
] as const) {
  INTERNAL_V6.addSubnet(address, prefix, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail is two groups), or null. */
export function ipv6Groups(address: string): number[] | null {
  if (!net.isIPv6(address) || address.includes('%')) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
const zero = (groups: number[]) => groups.every((g) => g === 0);

/**
 * The IPv4 addresses an IPv6 address carries and that a gateway or the host's own stack would connect to: IPv4-
 * compatible (`::127.0.0.1`, also `::` and `::1`), mapped (`::ffff:7f00:1`), translated (`::ffff:0:7f00:1`), NAT64
 * (`64:ff9b::7f00:1`), 6to4 (`2002:7f00:1::`) and Teredo (`2001:0::/32`: its server, and its client stored inverted).
 */
export function embeddedIPv4(groups: number[]): string[] {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const last = ipv4Of(g6, g7);
  if (zero([g0, g1, g2, g3, g4]) && (g5 === 0 || g5 === 0xffff)) return [last];
  if (zero([g0, g1, g2, g3, g5]) && g4 === 0xffff) return [last];
  if (g0 === 0x64 && g1 === 0xff9b && zero([g2, g3, g4, g5])) return [last];
  if (g0 === 0x2002) return [ipv4Of(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [ipv4Of(g2, g3), ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/**
 * Whether an IP address (v4 or v6, in any of its spellings) is one no user-set connection may reach: an internal IPv4
 * range, an internal IPv6 range, or an IPv6 form that carries an internal IPv4 address. Anything that is not an
 * address (a zone id included: `fe80::1%eth0` names an interface) is refused too.
 */
export function isInternalAddress(address: string): boolean {
  if (net.isIPv4(address)) return INTERNAL_V4.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (!groups) return true;
  if (INTERNAL_V6.check(address, 'ipv6')) return true;
  return embeddedIPv4(groups).some((v4) => INTERNAL_V4.check(v4, 'ipv4'));
}
