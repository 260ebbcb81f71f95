import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUDIT_KEY_FILE, AuditKey, resolveAuditKey, signatureValid } from '../../src/server/services/audit-key';
import { RunningTotals, lastEndedPeriod, sameTotals } from '../../src/server/services/audit-closings';

describe('the audit key', () => {
  it('is created once in DATA_DIR with owner-only permissions, then read back; AUDIT_KEY takes precedence', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-key-'));
    try {
      const first = resolveAuditKey({ auditKey: undefined, dataDir });
      const file = path.join(dataDir, AUDIT_KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      // Another process (no cache) reads the same key from the file.
      const again = new AuditKey(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'));
      expect(again.mac('x')).toBe(first.mac('x'));
      const fromEnv = resolveAuditKey({ auditKey: crypto.randomBytes(32), dataDir });
      expect(fromEnv.mac('x')).not.toBe(first.mac('x'));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keys the chain (HMAC): another key, or plain SHA-256, gives another hash', () => {
    const key = new AuditKey(crypto.randomBytes(32));
    const other = new AuditKey(crypto.randomBytes(32));
    const text = '1:1:0000:abcd';
    expect(key.mac(text)).toMatch(/^[0-9a-f]{64}$/);
    expect(key.mac(text)).not.toBe(other.mac(text));
    expect(key.mac(text)).not.toBe(crypto.createHash('sha256').update(text).digest('hex'));
  });

  it('signs closings (Ed25519): the public key verifies the text signed, nothing else, and no other key’s signature', () => {
    const key = new AuditKey(crypto.randomBytes(32));
    const other = new AuditKey(crypto.randomBytes(32));
    fc.assert(
      fc.property(fc.string(), fc.string(), (text, altered) => {
        const signature = key.sign(text);
        expect(signatureValid(key.publicKey, text, signature)).toBe(true);
        expect(signatureValid(other.publicKey, text, signature)).toBe(false);
        if (altered !== text) expect(signatureValid(key.publicKey, altered, signature)).toBe(false);
      }),
      { numRuns: 50 },
    );
    expect(signatureValid('pas une clé', 'x', key.sign('x'))).toBe(false);
  });
});

const issue = (type: string, total: number, currency = 'EUR') => JSON.stringify({ event: 'issue', document: { type, total, currency } });
const payment = (amount: number, currency = 'EUR') =>
  JSON.stringify({ event: amount < 0 ? 'payment_reversal' : 'payment', document: { currency }, payment: { amount } });

describe('the closings’ perpetual totals', () => {
  it.each([
    {
      entries: [issue('invoice', 1200), payment(200), issue('credit', 120)],
      totals: [{ currency: 'EUR', sales: '1080', payments: '200' }],
    },
    { entries: [issue('invoice', 0.1), issue('invoice', 0.2)], totals: [{ currency: 'EUR', sales: '0.3', payments: '0' }] },
    { entries: [payment(300), payment(-300)], totals: [{ currency: 'EUR', sales: '0', payments: '0' }] },
    // Estimates and other events move nothing; each currency is summed on its own.
    {
      entries: [issue('estimate', 500), issue('invoice', 10, 'USD'), issue('invoice', 5), '{not json'],
      totals: [
        { currency: 'EUR', sales: '5', payments: '0' },
        { currency: 'USD', sales: '10', payments: '0' },
      ],
    },
  ])('$entries.length entries → $totals', ({ entries, totals }) => {
    const running = new RunningTotals();
    for (const entry of entries) running.addEntry(entry);
    expect(running.list()).toEqual(totals);
  });

  it('a period’s totals are the difference of two perpetual ones, in any split of the entries', () => {
    const amounts = fc.array(
      fc.integer({ min: -1_000_000, max: 1_000_000 }).map((cents) => cents / 100),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(amounts, fc.nat(), (list, cut) => {
        const at = list.length === 0 ? 0 : cut % list.length;
        const before = new RunningTotals();
        const all = new RunningTotals();
        list.forEach((amount, i) => {
          const entry = payment(amount);
          if (i < at) before.addEntry(entry);
          all.addEntry(entry);
        });
        const rest = new RunningTotals();
        for (const amount of list.slice(at)) rest.addEntry(payment(amount));
        // Zero lines aside (a currency seen only before the cut), the same sums.
        expect(sameTotals(all.minus(before.list()), rest.list())).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    { now: '2026-11-29T10:00:00Z', period: 'day', closed: { start: '2026-11-28', end: '2026-11-28', next: '2026-11-29' } },
    // 00:30 in Paris on 1 December is still 30 November in UTC: the Paris day decides.
    { now: '2026-11-30T23:30:00Z', period: 'day', closed: { start: '2026-11-30', end: '2026-11-30', next: '2026-12-01' } },
    { now: '2026-12-01T00:10:00Z', period: 'month', closed: { start: '2026-11-01', end: '2026-11-30', next: '2026-12-01' } },
    { now: '2026-03-01T08:00:00Z', period: 'month', closed: { start: '2026-02-01', end: '2026-02-28', next: '2026-03-01' } },
    { now: '2027-01-01T00:05:00Z', period: 'year', closed: { start: '2026-01-01', end: '2026-12-31', next: '2027-01-01' } },
  ] as const)('at $now the last ended $period is $closed.start', ({ now, period, closed }) => {
    expect(lastEndedPeriod(period, new Date(now))).toEqual(closed);
  });
});
