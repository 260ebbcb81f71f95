import type { IncomingMessage } from 'node:http';
import net, { BlockList } from 'node:net';

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

const isTrusted = (trusted: TrustedProxies, address: string) => trusted.check(address, net.isIPv4(address) ? 'ipv4' : 'ipv6');

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
  const peer = normalize(req.socket.remoteAddress);
  if (!peer) return 'unknown';
  if (!isTrusted(trusted, peer)) return peer;
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
