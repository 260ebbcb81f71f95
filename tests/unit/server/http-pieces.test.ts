import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter, takeEach } from '../../../src/server/auth/rate-limit';
import { delayAfter, MemoryRateStore } from '../../../src/server/auth/rate-store';
import { clock } from '../../../src/server/clock';
import { validationMessages } from '../../../src/server/errors';
import { clearedSessionCookie, readCookie, sessionCookie } from '../../../src/server/auth/cookies';
import { isForeignOrigin } from '../../../src/server/http/origin';
import { generateToken, hashToken } from '../../../src/server/auth/tokens';
import { sameOrigin } from '../../../src/server/pdf/pdf-renderer';
import { clientIp, parseTrustProxy, rateLimitKeyOf } from '../../../src/server/net/client-ip';

afterEach(() => {
  clock.now = () => new Date();
});

describe('RateLimiter', () => {
  const rule = (limit: number, freeHits?: number) => ({ limit, windowMs: 60_000, freeHits });

  it('takes up to the limit, per key, never counts a refusal, and forgets after the window', async () => {
    const t0 = Date.now();
    clock.now = () => new Date(t0);
    const limiter = new RateLimiter('test', rule(3));
    expect([await limiter.take('a'), await limiter.take('a'), await limiter.take('a'), await limiter.take('a')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect((await limiter.window('a'))?.count).toBe(3);
    expect(limiter.limitedBy(await limiter.window('a'))).toBe(true);
    expect(await limiter.take('b')).toBe(true);
    expect(await limiter.resetInMs('a')).toBe(60_000);
    clock.now = () => new Date(t0 + 60_000);
    expect(await limiter.take('a')).toBe(true);
    expect((await limiter.window('a'))?.count).toBe(1);
  });

  it('of many takes at once, exactly the limit succeed', async () => {
    const limiter = new RateLimiter('test', rule(10));
    const taken = await Promise.all(Array.from({ length: 30 }, () => limiter.take('a')));
    expect(taken.filter(Boolean)).toHaveLength(10);
  });

  it('release gives one hit back, reset clears the key', async () => {
    const limiter = new RateLimiter('test', rule(1));
    expect(await limiter.take('a')).toBe(true);
    expect(await limiter.take('a')).toBe(false);
    await limiter.release('a');
    expect(await limiter.take('a')).toBe(true);
    await limiter.reset('a');
    expect(await limiter.window('a')).toBeUndefined();
    await limiter.release('a'); // nothing to give back: no window, no negative count
    expect(await limiter.window('a')).toBeUndefined();
  });

  it('after the free hits, each take waits 1 s, 2 s, 4 s… from the last one', async () => {
    const t0 = Date.now();
    clock.now = () => new Date(t0);
    const limiter = new RateLimiter('test', rule(10, 3));
    for (let i = 0; i < 3; i++) expect(await limiter.take('a')).toBe(true);
    expect(await limiter.take('a')).toBe(false);
    expect(limiter.waitOf(await limiter.window('a'))).toBe(1000);
    clock.now = () => new Date(t0 + 1000);
    expect(await limiter.take('a')).toBe(true);
    clock.now = () => new Date(t0 + 1500);
    expect(await limiter.take('a')).toBe(false);
    expect(limiter.waitOf(await limiter.window('a'))).toBe(1500);
    expect(limiter.waitOf(await limiter.window('b'))).toBe(0);
    expect([2, 3, 4, 8, 9, 30].map((count) => delayAfter(count, 3))).toEqual([0, 1000, 2000, 32_000, 60_000, 60_000]);
  });

  it('without delays, a last hit stamped ahead of this clock (another process’s) refuses nothing', async () => {
    const t0 = Date.now();
    const limiter = new RateLimiter('test', rule(3));
    clock.now = () => new Date(t0 + 5_000);
    expect(await limiter.take('a')).toBe(true);
    clock.now = () => new Date(t0);
    expect([await limiter.take('a'), await limiter.take('a'), await limiter.take('a')]).toEqual([true, true, false]);
  });

  it('takeEach gives back what it took when a later limiter refuses', async () => {
    const store = new MemoryRateStore();
    const wide = new RateLimiter('wide', rule(5), store);
    const narrow = new RateLimiter('narrow', rule(1), store);
    expect(
      await takeEach([
        [wide, 'k'],
        [narrow, 'k'],
      ]),
    ).toBeNull();
    expect(
      await takeEach([
        [wide, 'k'],
        [narrow, 'k'],
      ]),
    ).toBe(narrow);
    expect((await wide.window('k'))?.count).toBe(1);
    expect((await narrow.window('k'))?.count).toBe(1); // limiters sharing a store keep their own counts
  });
});

describe('rateLimitKeyOf', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:cb00:7109', '203.0.113.9'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2:ffff::]', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s → %s', (address, key) => {
    expect(rateLimitKeyOf(address)).toBe(key);
  });

  it('one /64 is one key, the next /64 another', () => {
    expect(rateLimitKeyOf('2001:db8:1:2:1::1')).toBe(rateLimitKeyOf('2001:db8:1:2:9:8:7:6'));
    expect(rateLimitKeyOf('2001:db8:1:2::1')).not.toBe(rateLimitKeyOf('2001:db8:1:3::1'));
  });
});

describe('validationMessages', () => {
  it.each([
    [[{ path: ['first_name'], message: 'Le prénom est obligatoire' }], ['Le prénom est obligatoire']],
    [[{ path: ['theme'], message: 'Option invalide' }], ['Thème : Option invalide']],
    [[{ path: ['items', 2, 'quantity'], message: 'Trop petit' }], ['Ligne 3 — Quantité : Trop petit']],
    [
      [{ path: ['items', 0, 'unit_price'], message: 'Prix unitaire : un nombre est attendu' }],
      ['Ligne 1 — Prix unitaire : un nombre est attendu'],
    ],
    [[{ path: [], message: 'Clé non reconnue : "x"' }], ['Clé non reconnue : "x"']],
    [
      [
        { path: ['email'], message: 'Adresse e-mail invalide' },
        { path: ['email'], message: 'Adresse e-mail invalide' },
      ],
      ['Adresse e-mail invalide'],
    ],
  ])('%j → %j', (issues, expected) => {
    expect(validationMessages(issues)).toEqual(expected);
  });
});

describe('cookies', () => {
  it('reads one cookie among several, and nothing from a missing header', () => {
    expect(readCookie('a=1; session=abc; b=2', 'session')).toBe('abc');
    expect(readCookie('sessionx=1', 'session')).toBeUndefined();
    expect(readCookie(undefined, 'session')).toBeUndefined();
  });

  it('writes CONTRACT.md attributes, Secure only when asked', () => {
    const expires = new Date('2026-12-22T10:00:00Z');
    expect(sessionCookie('tok', expires, false)).toBe('session=tok; HttpOnly; SameSite=Lax; Path=/; Expires=Tue, 22 Dec 2026 10:00:00 GMT');
    expect(sessionCookie('tok', expires, true)).toMatch(/; Secure$/);
    expect(clearedSessionCookie(false)).toBe('session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0');
  });
});

describe('tokens', () => {
  it('are 32 random bytes in base32 and hash to 64 hex characters', () => {
    const a = generateToken();
    expect(a).toMatch(/^[a-z2-7]{52}$/);
    expect(generateToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('isForeignOrigin', () => {
  const req = (method: string, headers: Record<string, string>) => ({ method, headers }) as unknown as IncomingMessage;
  const app = 'https://factures.exemple.fr';
  it.each([
    ['GET from anywhere', req('GET', { origin: 'https://evil.example' }), false],
    ['POST without Origin (scripts)', req('POST', {}), false],
    ['POST from the app URL', req('POST', { origin: app }), false],
    ['POST from the request host', req('POST', { origin: 'http://127.0.0.1:4000', host: '127.0.0.1:4000' }), false],
    ['POST from another site', req('POST', { origin: 'https://evil.example', host: 'factures.exemple.fr' }), true],
    ['DELETE from a null origin', req('DELETE', { origin: 'null' }), true],
    ['PUT from a look-alike', req('PUT', { origin: 'https://factures.exemple.fr.evil.example' }), true],
  ])('%s → %s', (_label, request, expected) => {
    expect(isForeignOrigin(request, app)).toBe(expected);
  });
});

describe('sameOrigin (the PDF printer fetches only the app itself)', () => {
  it.each([
    ['http://127.0.0.1:3000/share/abc', true],
    ['http://127.0.0.1:3000', true],
    ['http://127.0.0.1:30001/logo.png', false],
    ['http://127.0.0.1:3000.evil.example/x', false],
    ['http://127.0.0.1:3000@evil.example/x', false],
    ['https://127.0.0.1:3000/x', false],
    ['http://169.254.169.254/latest/meta-data', false],
    ['data:image/png;base64,AAAA', false],
    ['pas une adresse', false],
  ])('%s on an app at http://127.0.0.1:3000 → %s', (url, allowed) => {
    expect(sameOrigin(url, 'http://127.0.0.1:3000')).toBe(allowed);
  });
});

describe('clientIp (TRUST_PROXY)', () => {
  const request = (peer: string, headers: Record<string, string> = {}) =>
    ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

  it.each([
    ['a direct client is its own address, whatever it claims', 'loopback', '203.0.113.9', { 'x-forwarded-for': '1.2.3.4' }, '203.0.113.9'],
    [
      'behind nginx on this machine: the hop nginx appended',
      'loopback',
      '127.0.0.1',
      { 'x-forwarded-for': '1.2.3.4, 203.0.113.9' },
      '203.0.113.9',
    ],
    ['an IPv4 peer seen through IPv6', 'loopback', '::ffff:127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }, '203.0.113.9'],
    [
      'two proxies of ours: the first hop that is not one',
      'loopback, 10.0.0.0/8',
      '127.0.0.1',
      { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.1.2.3' },
      '203.0.113.9',
    ],
    ['X-Real-IP when there is no X-Forwarded-For', 'loopback', '127.0.0.1', { 'x-real-ip': '203.0.113.9' }, '203.0.113.9'],
    ['TRUST_PROXY=none believes no header', 'none', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }, '127.0.0.1'],
    ['a garbled hop stops the walk at the proxy', 'loopback', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9, pas-une-ip' }, '127.0.0.1'],
  ])('%s', (_what, trust, peer, headers, expected) => {
    expect(clientIp(request(peer, headers), parseTrustProxy(trust))).toBe(expected);
  });

  it('reads the headers of each request on a kept-alive connection, and each trust list on its own', () => {
    const socket = { remoteAddress: '127.0.0.1' };
    const on = (headers: Record<string, string>) => ({ socket, headers }) as unknown as IncomingMessage;
    const loopback = parseTrustProxy('loopback');
    expect(clientIp(on({ 'x-forwarded-for': '203.0.113.9' }), loopback)).toBe('203.0.113.9');
    expect(clientIp(on({ 'x-forwarded-for': '198.51.100.7' }), loopback)).toBe('198.51.100.7');
    expect(clientIp(on({}), loopback)).toBe('127.0.0.1');
    expect(clientIp(on({ 'x-forwarded-for': '203.0.113.9' }), parseTrustProxy('none'))).toBe('127.0.0.1');
    expect(clientIp(on({ 'x-forwarded-for': '203.0.113.9' }), loopback)).toBe('203.0.113.9');
  });

  it('refuses a TRUST_PROXY entry that is not an address or a range, naming it', () => {
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow('« 10.0.0.0/33 »');
    expect(() => parseTrustProxy('nginx')).toThrow('« nginx »');
  });
});
