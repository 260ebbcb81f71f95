import type { IncomingMessage } from 'node:http';
import net, { BlockList, type Socket } from 'node:net';
import { BoundedMemo } from '../bounded-memo';

/**
 * Which peers are our own reverse proxies (TRUST_PROXY): `loopback` (the default: nginx on the same machine), `none`,
 * or a comma-separated list of addresses and CIDR ranges (`10.0.0.0/8, 192.168.1.5, loopback`).
 */
export type TrustedProxies = BlockList;

const LOOPBACK_RANGES: [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
];

/** Parses TRUST_PROXY; throws a French message naming the entry that is neither an address nor a range. */
export function parseTrustProxy(value: string): TrustedProxies {
  const list = new BlockList();
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '' || entry === 'none') continue;
    if (entry === 'loopback') {
      for (const [address, prefix, family] of LOOPBACK_RANGES) list.addSubnet(address, prefix, family);
      continue;
    }
    const [address = '', prefix] = entry.split('/');
    const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
    const bits = prefix === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefix);
    if (!family || !Number.isInteger(bits) || bits < 0 || bits > (family === 'ipv4' ? 32 : 128)) {
      throw new Error(`« ${entry} » n’est ni une adresse IP, ni une plage CIDR, ni loopback, ni none`);
    }
    list.addSubnet(address, bits, family);
  }
  return list;
}

/** '::ffff:203.0.113.9' (IPv4 seen through an IPv6 socket) → '203.0.113.9'; anything unreadable → null. */
function normalize(address: string | undefined): string | null {
  const a = address?.trim().replace(/^\[(.*)\]$/, '$1') ?? '';
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  if (net.isIPv4(v4)) return v4;
  return net.isIPv6(a) ? a.toLowerCase() : null;
}

/**
 * The verdicts already given, per list: `BlockList.check` builds a SocketAddress at each call, which showed in the
 * profile of every request (`npm run bench -- scale`), while a server sees the same few peers again and again. A list
 * is never changed once parsed, so a verdict holds; the memo is emptied when it grows past what a busy server sees.
 */
const verdicts = new WeakMap<TrustedProxies, BoundedMemo<boolean>>();

function isTrusted(trusted: TrustedProxies, address: string): boolean {
  let known = verdicts.get(trusted);
  if (!known) {
    known = new BoundedMemo(10_000);
    verdicts.set(trusted, known);
  }
  return known.get(address) ?? known.remember(address, trusted.check(address, net.isIPv4(address) ? 'ipv4' : 'ipv6'));
}

/**
 * A connection's peer, normalized, and whether it is one of our proxies: read once per connection, which keeps its
 * peer while it stays open and carries every request of a kept-alive client (normalizing and checking it took about a
 * microsecond a request). The headers, which may name another client on each request, are read per request.
 */
const peers = new WeakMap<Socket, { trusted: TrustedProxies; peer: string | null; proxy: boolean }>();

function peerOf(socket: Socket, trusted: TrustedProxies): { peer: string | null; proxy: boolean } {
  let known = peers.get(socket);
  if (known?.trusted !== trusted) {
    const peer = normalize(socket.remoteAddress);
    known = { trusted, peer, proxy: peer !== null && isTrusted(trusted, peer) };
    // A socket that has not connected yet (or no longer is) has no address: nothing to remember.
    if (peer !== null) peers.set(socket, known);
  }
  return known;
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * The client's address for rate limits and the devices list. A peer that is not a trusted proxy is the client,
 * whatever headers it sends. Behind trusted proxies, X-Forwarded-For is read from the right — each proxy appends the
 * address it saw — and the first hop that is not one of ours is the client: entries a client wrote itself sit to the
 * left of it and are never read (nginx's `$proxy_add_x_forwarded_for` keeps them). Without that header, the proxy's
 * X-Real-IP.
 */
export function clientIp(req: IncomingMessage, trusted: TrustedProxies): string {
  const { peer, proxy } = peerOf(req.socket, trusted);
  if (!peer) return 'unknown';
  if (!proxy) return peer;
  const forwarded = header(req, 'x-forwarded-for');
  if (!forwarded) return normalize(header(req, 'x-real-ip')) ?? peer;
  const hops = forwarded.split(',').map(normalize);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop === null || hop === undefined) return peer; // a garbled hop: trust nothing to its left
    if (!isTrusted(trusted, hop)) return hop;
  }
  return hops[0] ?? peer; // every hop is one of ours: the request started inside
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 is two of them; a zone is dropped). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return parse(head);
  const [before, after] = [parse(head), parse(tail)];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The client a rate limit counts, from its address: an IPv4 address is one client (mapped into IPv6 or not), an IPv6
 * one is its /64 — a single line or host gets a whole /64 and picks any address in it, so counting per address would
 * let it rotate past every limit. Anything else (`unknown`) is its own key.
 */
export function rateLimitKeyOf(address: string): string {
  const bare = address.trim().replace(/^\[(.*)\]$/, '$1');
  if (net.isIPv4(bare)) return bare;
  if (!net.isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join('.'); // ::ffff:a.b.c.d, an IPv4 client
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
