import { parisToday } from '../../src/shared/paris-date';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/connection';
import { isPostgres } from '../../src/server/db/dialect';
import { createMigrator, migrateToLatest } from '../../src/server/migrate';
import { verifyAudit } from '../../src/server/services/audit';
import { closeAuditPeriods } from '../../src/server/services/audit-closings';
import { signatureValid } from '../../src/server/services/audit-key';
import { openEmptyTestDatabase, withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const tomorrow = () => new Date(Date.now() + 86_400_000);
/** Whether the day that closes at the next midnight in Paris ends a month: its month closes with it. */
const lastDayOfMonthInParis = () => parisToday(tomorrow()).slice(0, 7) !== parisToday().slice(0, 7);

/** `npm run audit:verify` on the test server's database (and DATA_DIR), with its arguments: exit code and report. */
async function auditVerify(...args: string[]): Promise<{ code: number; out: string }> {
  const env = { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' };
  try {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/audit-verify.ts', ...args], { env });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

/** Someone with the database in hand: the append-only triggers dropped, then whatever they write. */
function tamper(write: (db: Db) => Promise<unknown>): Promise<unknown> {
  return withServerDb(server, async (db) => {
    for (const trigger of ['audit_log_no_update', 'audit_log_no_delete', 'audit_closings_no_update', 'audit_closings_no_delete'])
      await sql
        .raw(
          isPostgres(db)
            ? `DROP TRIGGER IF EXISTS ${trigger} ON ${trigger.startsWith('audit_log') ? 'audit_log' : 'audit_closings'}`
            : `DROP TRIGGER IF EXISTS ${trigger}`,
        )
        .execute(db);
    return write(db);
  });
}

/** An organisation with an invoice of 1 200 € issued, 200 € paid and a credit note of 120 €: three entries. */
async function organisationWithActivity(): Promise<{ session: Session; organizationId: number; invoiceId: number }> {
  const { session, profile } = await registered(server.url);
  const { customerId } = await readyToInvoice(session);
  const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
  expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 200 })).status).toBe(201);
  const credit = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
    type: 'credit',
    lines: [{ id: invoice.items[0].id, quantity: 0.1 }],
  });
  expect((await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`)).status).toBe(200);
  const organizationId = await withServerDb(server, async (db) => {
    const row = await db.selectFrom('memberships').select('organization_id').where('user_id', '=', profile.id).executeTakeFirstOrThrow();
    return row.organization_id;
  });
  return { session, organizationId, invoiceId: invoice.id };
}

const chainOf = (db: Db, organizationId: number) =>
  db
    .selectFrom('audit_log')
    .select(['sequence', 'content', 'content_hash', 'previous_hash', 'hash'])
    .where('organization_id', '=', organizationId)
    .orderBy('sequence')
    .execute();

describe('audit log: keyed chain, signed closings', () => {
  it('chains entries with a keyed hash: plain SHA-256 of the link is not it', async () => {
    const { organizationId } = await organisationWithActivity();
    const chain = await withServerDb(server, (db) => chainOf(db, organizationId));
    for (const row of chain)
      expect(row.hash).not.toBe(sha256(`${organizationId}:${row.sequence}:${row.previous_hash}:${row.content_hash}`));
    for (const row of chain) expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
  }, 120_000);

  it('closes the day with perpetual totals, signed; the closing exports as a file that verifies', async () => {
    const { session, organizationId } = await organisationWithActivity();
    await withServerDb(server, (db) => closeAuditPeriods(db, tomorrow()));
    // Run again (another process, the next tick): nothing closed twice.
    await withServerDb(server, (db) => closeAuditPeriods(db, tomorrow()));
    const list = await session.rest('GET', '/api/audit/closings');
    expect(list.status).toBe(200);
    // The day's closing; on the last day of a month in Paris, the month's closes too (number 2).
    const days = list.body.data.filter((c: { period: string }) => c.period === 'day');
    expect(list.body.total).toBe(lastDayOfMonthInParis() ? 2 : 1);
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({
      number: 1,
      period: 'day',
      last_sequence: 3,
      cumulative_totals: [{ currency: 'EUR', sales: '1080', payments: '200' }],
    });
    const exported = await session.rest('GET', '/api/audit/closings/1');
    expect(exported.status).toBe(200);
    const file = exported.body;
    expect(file.closing).toMatchObject({
      format: 'facturier-audit-closing/1',
      organization_id: organizationId,
      number: 1,
      first_sequence: 1,
      last_sequence: 3,
      period_totals: [{ currency: 'EUR', sales: '1080', payments: '200' }],
      previous_signature: '',
    });
    // Anyone holding the file checks it with the public key it names (Ed25519).
    expect(signatureValid(file.public_key, JSON.stringify(file.closing), file.signature)).toBe(true);
    const forged = { ...file.closing, cumulative_totals: [{ currency: 'EUR', sales: '10', payments: '200' }] };
    expect(signatureValid(file.public_key, JSON.stringify(forged), file.signature)).toBe(false);
    expect((await session.rest('GET', '/api/audit/closings/7')).status).toBe(404);
    expect((await session.rest('GET', '/api/audit/closings/zéro')).status).toBe(400);
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 3 });

    const where = path.join(server.dataDir, `cloture-${organizationId}.json`);
    fs.writeFileSync(where, JSON.stringify(file, null, 2));
    const checked = await auditVerify('--closing', where);
    expect(checked.out).toMatch(/✓ Clôture .* signature valide, les 3 entrées scellées sont toujours là/);
    fs.writeFileSync(where, JSON.stringify({ ...file, closing: forged }));
    expect((await auditVerify('--closing', where)).out).toMatch(/✗ Clôture .* la signature ne correspond pas au contenu du fichier/);
  }, 120_000);

  it('two processes closing at once number the closings without a gap or a duplicate', async () => {
    const { session } = await organisationWithActivity();
    await withServerDb(server, (db) => Promise.all([closeAuditPeriods(db, tomorrow()), closeAuditPeriods(db, tomorrow())]));
    const list = (await session.rest('GET', '/api/audit/closings')).body;
    const numbers = list.data.map((c: { number: number }) => c.number).sort((a: number, b: number) => a - b);
    expect(numbers).toEqual(lastDayOfMonthInParis() ? [1, 2] : [1]);
  }, 120_000);
});

describe('npm run audit:verify detects the three tamperings', () => {
  it('a chain rewritten with plain SHA-256 (a payment’s amount changed, every hash after it recomputed)', async () => {
    const { session, organizationId } = await organisationWithActivity();
    await tamper(async (db) => {
      let previous = '';
      for (const row of await chainOf(db, organizationId)) {
        const content = row.sequence === 2 ? row.content.replace('"amount":200', '"amount":20') : row.content;
        const contentHash = sha256(content);
        const link = row.sequence === 1 ? row.previous_hash : previous;
        const hash = row.sequence === 1 ? row.hash : sha256(`${organizationId}:${row.sequence}:${link}:${contentHash}`);
        await db
          .updateTable('audit_log')
          .set({ content, content_hash: contentHash, previous_hash: link, hash })
          .where('organization_id', '=', organizationId)
          .where('sequence', '=', row.sequence)
          .execute();
        previous = hash;
      }
    });
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({
      ok: false,
      entries: 3,
      first_broken: 2,
      reason: 'Entrée n° 2 : son empreinte n’est pas celle que donne la clé du journal (entrée réécrite sans la clé)',
    });
    const { code, out } = await auditVerify();
    expect(code).toBe(1);
    expect(out).toContain(`(n° ${organizationId}) : journal altéré à partir de l’entrée n° 2 (sur 3) — Entrée n° 2 : son empreinte`);
  }, 120_000);

  it('the newest entries cut: the closing counted them; the exported closing proves it even with the closings gone', async () => {
    const { session, organizationId } = await organisationWithActivity();
    // Two changes of numbering: entries 4 and 5, which no other row points at.
    const template = (await session.rest('GET', '/api/settings?key=document')).body.data;
    for (const prefix of ['FA-{year}-', 'FB-{year}-']) {
      const numbering = { ...template.numbering, invoice: { ...template.numbering.invoice, prefix } };
      expect((await session.rest('PUT', '/api/settings?key=document', { ...template, numbering })).status).toBe(200);
    }
    await withServerDb(server, (db) => closeAuditPeriods(db, tomorrow()));
    const file = (await session.rest('GET', '/api/audit/closings/1')).body;
    expect(file.closing.last_sequence).toBe(5);
    const where = path.join(server.dataDir, `cloture-coupee-${organizationId}.json`);
    fs.writeFileSync(where, JSON.stringify(file));

    await tamper((db) => db.deleteFrom('audit_log').where('organization_id', '=', organizationId).where('sequence', '>=', 4).execute());
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({
      ok: false,
      entries: 3,
      first_broken: 4,
      reason: expect.stringMatching(/^Les entrées n° 4 à 5 ont disparu : la clôture n° 1 du \d{4}-\d{2}-\d{2} en comptait 5$/),
    });
    // The closings deleted as well: the database alone now looks whole, the file kept apart does not.
    await tamper((db) => db.deleteFrom('audit_closings').where('organization_id', '=', organizationId).execute());
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 3 });
    const { code, out } = await auditVerify('--closing', where);
    expect(code).toBe(1);
    expect(out).toContain('le journal ne compte plus que 3 entrées sur les 5 qu’elle a scellées — les entrées n° 4 à 5 ont été coupées');
  }, 120_000);

  it('an issued document’s line changed in SQL', async () => {
    const { session, organizationId, invoiceId } = await organisationWithActivity();
    await tamper((db) => db.updateTable('document_items').set({ unit_price: '900' }).where('document_id', '=', invoiceId).execute());
    expect((await session.rest('GET', '/api/audit/verify')).body).toMatchObject({ ok: false, first_broken: 1 });
    const { code, out } = await auditVerify();
    expect(code).toBe(1);
    expect(out).toContain(
      `(n° ${organizationId}) : journal altéré à partir de l’entrée n° 1 (sur 3) — Entrée n° 1 : le document émis qu’elle désigne a été modifié depuis son émission`,
    );
  }, 120_000);

  it('a payment changed or deleted in SQL, its entry left as it was', async () => {
    const changed = await organisationWithActivity();
    await tamper((db) =>
      db
        .updateTable('payments')
        .set({ amount: 20 * 10_000 })
        .where('document_id', '=', changed.invoiceId)
        .execute(),
    );
    expect((await changed.session.rest('GET', '/api/audit/verify')).body).toEqual({
      ok: false,
      entries: 3,
      first_broken: 2,
      reason: 'Entrée n° 2 : le paiement qu’elle enregistre a été modifié depuis (facture, date, montant, mode ou contre-écriture)',
    });
    const { code, out } = await auditVerify();
    expect(code).toBe(1);
    expect(out).toContain(`(n° ${changed.organizationId}) : journal altéré à partir de l’entrée n° 2 (sur 3) — Entrée n° 2 : le paiement`);

    const deleted = await organisationWithActivity();
    await tamper((db) => db.deleteFrom('payments').where('document_id', '=', deleted.invoiceId).execute());
    expect((await deleted.session.rest('GET', '/api/audit/verify')).body).toEqual({
      ok: false,
      entries: 3,
      first_broken: 2,
      reason: 'Entrée n° 2 : le paiement qu’elle enregistre a disparu de la base',
    });
  }, 120_000);

  it('an entry deleted while its payment stays: the payment has no entry', async () => {
    const { session, organizationId } = await organisationWithActivity();
    // The last entry (the credit note's issue) cut, and the credit note with it; the payment's entry cut too.
    await tamper(async (db) => {
      await db.deleteFrom('audit_log').where('organization_id', '=', organizationId).where('sequence', '>=', 2).execute();
    });
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({
      ok: false,
      entries: 1,
      reason: expect.stringMatching(/^(Avoir AV\d{4}-\d{4} n’a pas d’entrée au journal|Le paiement n° \d+ n’a pas d’entrée au journal)$/),
    });
  }, 120_000);
});

describe('migration 0055: a chain written with plain SHA-256 is sealed, then kept verifiable', () => {
  it('signs a legacy seal at the last entry; a plain rewrite of the legacy segment is then detected', async () => {
    const empty = openEmptyTestDatabase();
    try {
      const db = empty.connection.db;
      await createMigrator(db).migrateTo('0049_expense_reverse_charge');
      const now = new Date().toISOString();
      const org = await db
        .insertInto('organizations')
        .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The chain as the log wrote it before the key: plain SHA-256 links.
      let previous = '0'.repeat(64);
      for (let sequence = 1; sequence <= 3; sequence++) {
        const content = JSON.stringify({
          event: 'numbering_change',
          at: now,
          user: null,
          numbering: { type: 'invoice', from: `F${sequence}-`, to: `F${sequence + 1}-` },
        });
        const contentHash = sha256(content);
        const hash = sha256(`${org.id}:${sequence}:${previous}:${contentHash}`);
        await db
          .insertInto('audit_log')
          .values({
            organization_id: org.id,
            sequence,
            event: 'numbering_change',
            content,
            content_hash: contentHash,
            previous_hash: previous,
            hash,
            created_at: now,
          })
          .execute();
        previous = hash;
      }
      expect(await migrateToLatest(db)).toContain('0055_audit_closings');
      const seal = await db.selectFrom('audit_closings').selectAll().where('organization_id', '=', org.id).executeTakeFirstOrThrow();
      expect(seal).toMatchObject({ number: 1, period: 'legacy', last_sequence: 3 });
      expect(JSON.parse(seal.payload)).toMatchObject({
        last_sequence: 3,
        last_hash: previous,
        unlogged: { documents: [], payments_through: 0 },
      });
      expect(await verifyAudit(db, org.id, empty.dir)).toEqual({ ok: true, entries: 3 });
      // Signed once: the seal is now as immutable as the log.
      await expect(db.updateTable('audit_closings').set({ signature: 'x' }).execute()).rejects.toThrow('audit_closings is append-only');
      await expect(db.deleteFrom('audit_closings').execute()).rejects.toThrow('audit_closings is append-only');

      // Entry 2 rewritten and every link after it recomputed the old way: the seal's hash no longer matches.
      await (isPostgres(db) ? sql`DROP TRIGGER audit_log_no_update ON audit_log` : sql`DROP TRIGGER audit_log_no_update`).execute(db);
      let link = '';
      for (const row of await chainOf(db, org.id)) {
        if (row.sequence === 1) {
          link = row.hash;
          continue;
        }
        const content = row.content.replace('"from":"F2-"', '"from":"X2-"');
        const contentHash = sha256(content);
        const hash = sha256(`${org.id}:${row.sequence}:${link}:${contentHash}`);
        await db
          .updateTable('audit_log')
          .set({ content, content_hash: contentHash, previous_hash: link, hash })
          .where('organization_id', '=', org.id)
          .where('sequence', '=', row.sequence)
          .execute();
        link = hash;
      }
      expect(await verifyAudit(db, org.id, empty.dir)).toEqual({
        ok: false,
        entries: 3,
        first_broken: 3,
        reason: 'L’entrée n° 3 n’est plus celle que la clôture n° 1 a scellée',
      });

      // An unsigned seal slipped in later (over a chain rewritten the old way) is never signed by a later start.
      const other = await db
        .insertInto('organizations')
        .values({ name: 'Autre SARL', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('audit_closings')
        .values({
          organization_id: other.id,
          number: 1,
          period: 'legacy',
          period_start: '',
          last_sequence: 0,
          payload: '',
          signature: '',
          created_at: now,
        })
        .execute();
      expect(await migrateToLatest(db)).toEqual([]);
      expect(await verifyAudit(db, other.id, empty.dir)).toEqual({
        ok: false,
        entries: 0,
        reason: 'Le scellement des entrées antérieures à la clé n’est pas signé',
      });
    } finally {
      await empty.remove();
    }
  }, 120_000);
});
