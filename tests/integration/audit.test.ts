import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/connection';
import { isPostgres } from '../../src/server/db/dialect';
import { appendAudit } from '../../src/server/services/audit';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { issued, line, owedStatus, readyToInvoice } from '../helpers/documents';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** `npm run audit:verify` on the test database: its exit code and its French report. */
async function auditVerifyScript(): Promise<{ code: number; out: string }> {
  const env = { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' };
  try {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/audit-verify.ts'], { env });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

interface Entry {
  sequence: number;
  event: string;
  content: Record<string, unknown>;
  content_hash: string;
  previous_hash: string;
  hash: string;
}

async function log(session: Session): Promise<Entry[]> {
  const answer = await session.rest('GET', '/api/audit?per_page=100');
  expect(answer.status).toBe(200);
  expect(answer.body.total).toBe(answer.body.data.length);
  return answer.body.data;
}

/**
 * A hand on the database, as someone with access to the server would have: dropping the UPDATE trigger, they write
 * what they like. Only DROP TRIGGER's syntax differs (PostgreSQL names the table).
 */
function tamper(write: (db: Db) => Promise<unknown>): Promise<unknown> {
  return withServerDb(server, async (db) => {
    await (isPostgres(db)
      ? sql`DROP TRIGGER IF EXISTS audit_log_no_update ON audit_log`
      : sql`DROP TRIGGER IF EXISTS audit_log_no_update`
    ).execute(db);
    return write(db);
  });
}

const organizationOf = (db: Db, userId: number) => db.selectFrom('memberships').select('organization_id').where('user_id', '=', userId);

describe('audit log: issues, payments, reversals, numbering and archives, hash-chained', () => {
  it('appends an entry per event, each linked to the previous one; verify answers ok', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    const paid = await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 200 });
    expect(paid.status).toBe(201);
    const credit = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
      type: 'credit',
      lines: [{ id: invoice.items[0].id, quantity: 0.1 }],
    });
    expect((await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`)).status).toBe(200);

    const entries = await log(session);
    expect(entries.map((e) => [e.sequence, e.event])).toEqual([
      [3, 'issue'],
      [2, 'payment'],
      [1, 'issue'],
    ]);
    expect(entries[2]?.content).toMatchObject({
      event: 'issue',
      user: { name: expect.any(String) },
      document: { id: invoice.id, type: 'invoice', number: 'F2026-0001', total: 1200, currency: 'EUR' },
      legal_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(entries[1]?.content).toMatchObject({ payment: { id: paid.body.data.id, amount: 200, reverses_id: null } });
    expect(entries[0]?.content).toMatchObject({ document: { type: 'credit', number: 'AV2026-0001', total: 120 } });
    expect(entries[2]?.previous_hash).toBe('0'.repeat(64));
    expect(entries[1]?.previous_hash).toBe(entries[2]?.hash);
    expect(entries[0]?.previous_hash).toBe(entries[1]?.hash);
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 3 });
    // Newest first, paginated.
    const page2 = await session.rest('GET', '/api/audit?page=2&per_page=2');
    expect(page2.body.total).toBe(3);
    expect(page2.body.data.map((e: Entry) => e.sequence)).toEqual([1]);
    expect((await session.trpc().audit.verify.query()).ok).toBe(true);
  });

  it('reverses a payment by a counter-entry instead of deleting it; the balance follows; PUT reverses and records anew', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    const payment = (await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 300 })).body.data;
    const path = `/api/documents/${invoice.id}/payments/${payment.id}`;

    const reversed = await session.rest('DELETE', path);
    expect(reversed.status).toBe(200);
    expect(reversed.body).toEqual({ messages: 'Paiement annulé par une contre-écriture' });
    const payments = (await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body;
    expect(payments.total).toBe(2);
    expect(payments.data).toEqual([
      expect.objectContaining({ id: payment.id, amount: 300, reverses_id: null, reversed_by_id: payments.data[1].id }),
      expect.objectContaining({ amount: -300, reverses_id: payment.id, reversed_by_id: null }),
    ]);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({
      paid: 0,
      amount_due: 1200,
      status: owedStatus(invoice),
    });

    const again = await session.rest('DELETE', path);
    expect(again.status).toBe(409);
    expect(again.body.messages).toBe('Ce paiement est déjà annulé par une contre-écriture');
    const ofReversal = await session.rest('DELETE', `/api/documents/${invoice.id}/payments/${payments.data[1].id}`);
    expect(ofReversal.status).toBe(409);
    expect(ofReversal.body.messages).toBe('Une contre-écriture ne s’annule pas : enregistrez un nouveau paiement');
    expect((await session.rest('PUT', path, { date: '2026-11-11', amount: 50 })).status).toBe(409);

    const second = (await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-12', amount: 400 })).body.data;
    const corrected = await session.rest('PUT', `/api/documents/${invoice.id}/payments/${second.id}`, {
      date: '2026-11-12',
      amount: 450,
      method: 'check',
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body.messages).toBe('Paiement corrigé : l’ancien est annulé par une contre-écriture');
    expect(corrected.body.data).toMatchObject({ amount: 450, method: 'check', reverses_id: null });
    expect(corrected.body.data.id).not.toBe(second.id);
    expect((await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.total).toBe(5);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({
      paid: 450,
      amount_due: 750,
      status: owedStatus(invoice, 'partial'),
    });
    // A correction that would overpay is refused whole: the old payment stays unreversed.
    const over = await session.rest('PUT', `/api/documents/${invoice.id}/payments/${corrected.body.data.id}`, {
      date: '2026-11-12',
      amount: 1300,
    });
    expect(over.status).toBe(409);
    expect(over.body.messages).toBe('Le paiement dépasse le reste à payer (1200,00\u00a0€)');
    expect((await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.total).toBe(5);

    expect((await log(session)).map((e) => e.event)).toEqual([
      'payment',
      'payment_reversal',
      'payment',
      'payment_reversal',
      'payment',
      'issue',
    ]);
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 6 });
  });

  it('logs a change of a series’ numbering pattern and a customer archived', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const template = (await session.rest('GET', '/api/settings?key=document')).body.data;
    const saved = await session.rest('PUT', '/api/settings?key=document', {
      ...template,
      numbering: { ...template.numbering, invoice: { ...template.numbering.invoice, prefix: 'FAC-{year}-' } },
    });
    expect(saved.status).toBe(200);
    // Saving the same template again changes no numbering: nothing logged.
    expect((await session.rest('PUT', '/api/settings?key=document', saved.body.data)).status).toBe(200);
    expect((await session.rest('DELETE', `/api/customers/${customerId}`)).status).toBe(200);
    const [archive, numbering, ...rest] = await log(session);
    expect(rest).toEqual([]);
    expect(numbering?.content).toMatchObject({
      event: 'numbering_change',
      numbering: { type: 'invoice', from: `${template.numbering.invoice.prefix}[4 chiffres]`, to: 'FAC-{year}-[4 chiffres]' },
    });
    expect(archive?.content).toMatchObject({ event: 'customer_archive', customer: { id: customerId, name: 'Boulangerie Martin' } });
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 2 });
  });

  it('entries appended at the same moment by several connections (processes) make one unbroken chain', async () => {
    const { session, profile } = await registered(server.url);
    // On PostgreSQL each transaction is its own connection of the pool, as two processes' would be: without the chain's
    // lock, two of them read the same last entry and the second insert breaks the (organisation, sequence) key.
    await withServerDb(server, async (db) => {
      const { organization_id } = await organizationOf(db, profile.id).executeTakeFirstOrThrow();
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          db
            .transaction()
            .execute((trx) =>
              appendAudit(trx, organization_id, 'numbering_change', { numbering: { type: 'invoice', from: `F-${i}`, to: `F-${i + 1}` } }),
            ),
        ),
      );
    });
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 12 });
    expect((await log(session)).map((e) => e.sequence).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('another organisation’s log is not visible, nor its payments reversible', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const payment = (await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 20 })).body.data;
    const { session: other } = await registered(server.url);
    expect((await other.rest('GET', '/api/audit')).body).toEqual({ total: 0, data: [] });
    expect((await other.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 0 });
    const foreign = await other.rest('DELETE', `/api/documents/${invoice.id}/payments/${payment.id}`);
    expect(foreign.status).toBe(404);
    expect((await log(session)).length).toBe(2);
    expect((await new Session(server.url).rest('GET', '/api/audit')).status).toBe(401);
  });
});

describe('npm run audit:verify', () => {
  it('reports every organisation’s log intact, exit code 0', async () => {
    const { code, out } = await auditVerifyScript();
    expect(code).toBe(0);
    expect(out).toMatch(/✓ Atelier Fontaine \(n° \d+\) : journal intègre, \d+ entrées vérifiées/);
    expect(out).toMatch(/Tous les journaux sont intègres \(\d+ organisations\)\./);
  });
});

describe('audit log: tampering with the database is detected', () => {
  it('refuses an UPDATE or DELETE of a log row through SQL while its triggers stand', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    await issued(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    await withServerDb(server, async (db) => {
      await expect(db.updateTable('audit_log').set({ content: '{}' }).execute()).rejects.toThrow('audit_log is append-only');
      await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow('audit_log is append-only');
    });
  });

  it('an UPDATE on a log row’s content breaks verify at that entry', async () => {
    const { session, profile } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 500 });
    await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-11', amount: 100 });
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 3 });
    await tamper((db) =>
      db
        .updateTable('audit_log')
        .set({ content: sql`replace(content, '"amount":500', '"amount":50')` })
        .where('sequence', '=', 2)
        .where('organization_id', '=', organizationOf(db, profile.id))
        .execute(),
    );
    const verify = await session.rest('GET', '/api/audit/verify');
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({
      ok: false,
      entries: 3,
      first_broken: 2,
      reason: 'Entrée n° 2 : son contenu ne correspond plus à son empreinte',
    });
  });

  it('rehashing a tampered content does not help: its entry’s own hash no longer matches', async () => {
    const { session, profile } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 500 });
    await tamper(async (db) => {
      const row = await db
        .selectFrom('audit_log')
        .select('content')
        .where('organization_id', '=', organizationOf(db, profile.id))
        .where('sequence', '=', 1)
        .executeTakeFirstOrThrow();
      const content = row.content.replace('"total":1200', '"total":12');
      const hash = createHash('sha256').update(content).digest('hex');
      await db
        .updateTable('audit_log')
        .set({ content, content_hash: hash })
        .where('organization_id', '=', organizationOf(db, profile.id))
        .where('sequence', '=', 1)
        .execute();
    });
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({
      ok: false,
      entries: 2,
      first_broken: 1,
      reason: 'Entrée n° 1 : son empreinte n’est pas celle que donne la clé du journal (entrée réécrite sans la clé)',
    });
  });

  it('an UPDATE on an issued document’s total, or on one of its lines, breaks verify at its issue entry', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const first = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    const second = await issued(session, { customer_id: customerId, items: [line('Conseil', 2, 300)] });
    await session.rest('POST', `/api/documents/${second.id}/payments`, { date: '2026-11-10', amount: 100 });
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 3 });

    await tamper((db) => db.updateTable('document_items').set({ unit_price: '250' }).where('document_id', '=', second.id).execute());
    const changed = 'le document émis qu’elle désigne a été modifié depuis son émission';
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({
      ok: false,
      entries: 3,
      first_broken: 2,
      reason: `Entrée n° 2 : ${changed}`,
    });
    await tamper((db) =>
      db
        .updateTable('documents')
        .set((eb) => ({ total: eb('total', '-', 10000) }))
        .where('id', '=', first.id)
        .execute(),
    );
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({
      ok: false,
      entries: 3,
      first_broken: 1,
      reason: `Entrée n° 1 : ${changed}`,
    });
  });

  it('npm run audit:verify names the broken logs and exits with code 1', async () => {
    const { code, out } = await auditVerifyScript();
    expect(code).toBe(1);
    expect(out).toMatch(/✗ Atelier Fontaine \(n° \d+\) : journal altéré à partir de l’entrée n° 2 \(sur 3\)/);
    expect(out).toMatch(/3 journaux altérés sur \d+\./);
  });
});
