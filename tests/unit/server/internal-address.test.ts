import dns from 'node:dns/promises';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embeddedIPv4, ipv6Groups, isInternalAddress } from '../../../src/server/net/internal-address';
import { OUTBOUND_REFUSED, resolveOutbound } from '../../../src/server/net/outbound-guard';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('isInternalAddress', () => {
  it.each([
    // IPv4
    ['127.0.0.1', true],
    ['10.0.0.1', true],
    ['172.16.5.4', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['93.184.216.34', false],
    ['172.32.0.1', false],
    // IPv6 in itself
    ['::', true],
    ['::1', true],
    ['fe80::1', true],
    ['fec0::1', true],
    ['fd00:ec2::254', true],
    ['ff02::1', true],
    ['64:ff9b:1::a00:1', true],
    ['100::1', true],
    ['2a00:1450:4007:80e::2005', false],
    // Loopback carried inside IPv6, every spelling
    ['::7f00:1', true],
    ['::127.0.0.1', true],
    ['0:0:0:0:0:0:7f00:1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:127.0.0.1', true],
    ['::FFFF:7F00:0001', true],
    ['::ffff:0:7f00:1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::127.0.0.1', true],
    ['2002:7f00:1::', true],
    ['2002:7f00:0001:0:0:0:0:1', true],
    // Private and link-local IPv4 inside them
    ['::a00:1', true],
    ['::ffff:a9fe:a9fe', true],
    ['64:ff9b::c0a8:101', true],
    ['2002:a9fe:a9fe::1', true],
    ['2002:ac10:1::', true],
    // Teredo: the server (bits 32–63) or the client (last 32 bits, inverted) internal
    ['2001:0:7f00:1::', true],
    ['2001:0:5db8:d822:0:0:80ff:fffe', true], // client ~7f00:0001 = 127.0.0.1
    ['2001:0:5db8:d822:0:0:a2ff:2bdd', false], // server 93.184.216.34, client 93.0.212.34
    // Public IPv4 inside them stays public
    ['::ffff:5db8:d822', false],
    ['64:ff9b::5db8:d822', false],
    ['2002:5db8:d822::1', false],
    // Not an address, or tied to an interface
    ['fe80::1%eth0', true],
    ['localhost', true],
    ['', true],
    ['127.000.000.001', true],
  ])('%s → %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });
});

describe('ipv6Groups and embeddedIPv4', () => {
  it('reads every spelling of one address the same', () => {
    const loopback = [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1];
    for (const spelling of ['::ffff:7f00:1', '::ffff:127.0.0.1', '0:0:0:0:0:ffff:7f00:0001', '0000::FFFF:127.0.0.1'])
      expect(ipv6Groups(spelling), spelling).toEqual(loopback);
    expect(embeddedIPv4(loopback)).toEqual(['127.0.0.1']);
    expect(ipv6Groups('1::2:3')).toEqual([1, 0, 0, 0, 0, 0, 2, 3]);
    expect(ipv6Groups('not::an::address')).toBeNull();
  });
});

/** An IPv4 address as four bytes. */
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((b) => b.join('.'));
const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
/** Every IPv6 spelling that carries `v4` where a stack or a gateway would connect to it. */
function carriers(v4: string): string[] {
  const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
  const high = hex(a, b);
  const low = hex(c, d);
  return [
    `::${v4}`,
    `::${high}:${low}`,
    `::ffff:${v4}`,
    `::ffff:${high}:${low}`,
    `::ffff:0:${high}:${low}`,
    `64:ff9b::${v4}`,
    `64:ff9b::${high}:${low}`,
    `2002:${high}:${low}::1`,
    `2001:0:${high}:${low}::`,
    `2001:0:5db8:d822::${hex(a ^ 0xff, b ^ 0xff)}:${hex(c ^ 0xff, d ^ 0xff)}`,
  ];
}

describe('the guard reads an IPv4 address the same wherever an IPv6 form carries it', () => {
  it('an internal IPv4 address is internal in every carrier (property)', () => {
    fc.assert(
      fc.property(
        ipv4.filter((v4) => isInternalAddress(v4)),
        (v4) => carriers(v4).every((v6) => isInternalAddress(v6)),
      ),
      { numRuns: 500 },
    );
  });

  it('a compatible, mapped, translated, NAT64 or 6to4 carrier of a public IPv4 address is public (property)', () => {
    // Teredo is left out: its other half (the server, or the inverted client) decides as well.
    fc.assert(
      fc.property(
        ipv4.filter((v4) => !isInternalAddress(v4)),
        (v4) =>
          carriers(v4)
            .slice(0, 8)
            .every((v6) => !isInternalAddress(v6)),
      ),
      { numRuns: 500 },
    );
  });
});

describe('resolveOutbound after DNS resolution', () => {
  it.each(['::7f00:1', '::ffff:7f00:1', '64:ff9b::a9fe:a9fe', '2002:c0a8:101::1', '2001:0:7f00:1::'])(
    'refuses a name that resolves to %s, with the uniform answer',
    async (address) => {
      vi.spyOn(dns, 'lookup').mockResolvedValue([{ address, family: 6 }] as never);
      await expect(resolveOutbound('relais.exemple.fr', 587, { allowPrivate: false, ports: [587] })).rejects.toThrow(OUTBOUND_REFUSED);
    },
  );

  it('lets a name through that resolves to a public IPv6 address', async () => {
    vi.spyOn(dns, 'lookup').mockResolvedValue([{ address: '2a00:1450:4007:80e::2005', family: 6 }] as never);
    await expect(resolveOutbound('relais.exemple.fr', 587, { allowPrivate: false, ports: [587] })).resolves.toBe(
      '2a00:1450:4007:80e::2005',
    );
  });
});
