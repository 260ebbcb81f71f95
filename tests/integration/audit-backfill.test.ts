import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/server/db/connection';
import { openEmptyTestDatabase } from '../helpers/database';
import { createMigrator, migrateToLatest } from '../../src/server/migrate';
import * as backfill from '../../src/server/db/migrations/0017_audit_backfill';
import { appendAudit, entryHash, legacyEntryHash, legalHash, verifyAudit } from '../../src/server/services/audit';

let empty: ReturnType<typeof openEmptyTestDatabase> | undefined;
let dir: string;
let connection: Connection;
afterEach(() => empty?.remove());

/** A document row as the application wrote it before the log existed (migration 0007's columns). */
async function oldDocument(
  organizationId: number,
  values: { number: string | null; status: string; issued_at: string | null; uuid: string },
) {
  const now = '2026-01-02T08:00:00.000Z';
  const doc = await connection.db
    .insertInto('documents')
    .values({
      organization_id: organizationId,
      type: 'invoice',
      kind: 'standard',
      status: values.status,
      number: values.number,
      counter: values.number ? Number(values.number.slice(-4)) : null,
      uuid: values.uuid,
      date: '2026-01-02',
      maturity: null,
      sale_date: null,
      condition: '',
      header: '',
      footer: '',
      terms: '',
      note: '',
      discount_type: 'percent',
      discount_value: '0',
      shipping_fee: '0',
      shipping_details: '',
      vat_exemption: '',
      additional_info: '[]',
      deposit_request: '[]',
      customer_id: null,
      customer_name: 'Boulangerie Martin',
      order_id: null,
      currency: 'EUR',
      price_mode: 'ht',
      origin_id: null,
      corrects_id: null,
      deducted_by_id: null,
      seller_snapshot: null,
      customer_snapshot: null,
      legal_mentions: '[]',
      tax_groups: '[]',
      subtotal: 1000000,
      discount: 0,
      tax: 200000,
      shipping: 0,
      total: 1200000,
      deposits: 0,
      paid: 0,
      amount_due: 1200000,
      issued_at: values.issued_at,
      sent_at: null,
      viewed_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await connection.db
    .insertInto('document_items')
    .values({
      document_id: doc.id,
      position: 0,
      code: '',
      sku: '',
      item: 'Conseil',
      description: '',
      quantity: '1',
      unit: 'h',
      unit_price: '100',
      discount_type: 'percent',
      discount_value: '0',
      taxes: JSON.stringify([{ title: 'TVA 20 %', rate: 20 }]),
      kind: 'service',
    })
    .execute();
  return doc.id;
}

const entries = (organizationId: number) =>
  connection.db
    .selectFrom('audit_log')
    .select(['sequence', 'event', 'content', 'content_hash', 'previous_hash', 'hash'])
    .where('organization_id', '=', organizationId)
    .orderBy('sequence')
    .execute();

describe('migration 0017: the log gains the documents issued, and the PDFs kept, before it recorded them', () => {
  it('appends one issue entry per issued document in issue order and one archive entry per kept PDF, once; verify covers them', async () => {
    empty = openEmptyTestDatabase(); // its folder holds the kept PDFs too
    ({ dir, connection } = empty);
    await createMigrator(connection.db).migrateTo('0007_documents');
    const now = new Date().toISOString();
    const org = await connection.db
      .insertInto('organizations')
      .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Issued second but created first: the log follows the order of issue, not of creation.
    const later = await oldDocument(org.id, {
      number: 'F-0002',
      status: 'unpaid',
      issued_at: '2026-01-05T10:00:00.000Z',
      uuid: '00000000-0000-4000-8000-000000000002',
    });
    const earlier = await oldDocument(org.id, {
      number: 'F-0001',
      status: 'paid',
      issued_at: '2026-01-04T09:00:00.000Z',
      uuid: '00000000-0000-4000-8000-000000000001',
    });
    await oldDocument(org.id, { number: null, status: 'draft', issued_at: null, uuid: '00000000-0000-4000-8000-000000000003' });

    // F-0002's PDF was kept at a download before archives were logged (0013).
    await createMigrator(connection.db).migrateTo('0013_pdf_archive');
    const pdf = Buffer.from('%PDF-1.7 facture F-0002');
    const pdfPath = path.join('archive', String(org.id), '00000000-0000-4000-8000-000000000002.pdf');
    fs.mkdirSync(path.join(dir, path.dirname(pdfPath)), { recursive: true });
    fs.writeFileSync(path.join(dir, pdfPath), pdf);
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    await connection.db
      .updateTable('documents')
      .set({ pdf_path: pdfPath, pdf_sha256: sha256, pdf_size: pdf.length })
      .where('id', '=', later)
      .execute();

    expect(await migrateToLatest(connection.db)).toContain('0017_audit_backfill');
    const log = await entries(org.id);
    expect(log.map((e) => [e.sequence, e.event])).toEqual([
      [1, 'issue'],
      [2, 'issue'],
      [3, 'archive'],
    ]);
    const [first, second, archive] = log.map((e) => JSON.parse(e.content));
    expect(first).toMatchObject({
      event: 'issue',
      user: null,
      backfilled: true,
      document: { id: earlier, type: 'invoice', number: 'F-0001', total: 120, currency: 'EUR' },
      legal_hash: await legalHash(connection.db, org.id, earlier),
    });
    expect(second).toMatchObject({ backfilled: true, document: { id: later, number: 'F-0002' } });
    expect(archive).toMatchObject({
      event: 'archive',
      backfilled: true,
      document: { id: later, number: 'F-0002' },
      pdf: { path: pdfPath, sha256, size: pdf.length },
    });
    // Linked as the log linked entries when the migration was written (plain SHA-256), never with today's key: the
    // legacy seal of 0055, signed after the migrations, is what vouches for them.
    for (const e of log) {
      expect(e.hash).toBe(legacyEntryHash(org.id, e.sequence, e.previous_hash, e.content_hash));
      expect(e.hash).not.toBe(entryHash(org.id, e.sequence, e.previous_hash, e.content_hash));
    }
    const seal = await connection.db
      .selectFrom('audit_closings')
      .select(['number', 'period', 'last_sequence', 'signature'])
      .where('organization_id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(seal).toMatchObject({ number: 1, period: 'legacy', last_sequence: 3 });
    expect(seal.signature).not.toBe('');
    expect(await verifyAudit(connection.db, org.id, dir)).toEqual({ ok: true, entries: 3 });

    // Run again (as after a crash before it was recorded as applied): nothing is logged twice.
    await backfill.up(connection.db as never);
    expect(await entries(org.id)).toHaveLength(3);

    // What the application appends after the seal carries the keyed link, and the chain still verifies.
    await connection.db
      .transaction()
      .execute((trx) => appendAudit(trx, org.id, 'numbering_change', { numbering: { type: 'invoice', from: 'F-0002', to: 'F-0003' } }));
    const [appended] = (await entries(org.id)).slice(3);
    expect(appended?.hash).toBe(entryHash(org.id, 4, appended?.previous_hash ?? '', appended?.content_hash ?? ''));
    expect(await verifyAudit(connection.db, org.id, dir)).toEqual({ ok: true, entries: 4 });

    // Covered from now on: the kept file altered, then the issued document itself.
    const forged = Buffer.from('%PDF-1.7 facture F-0002, modifiée');
    fs.writeFileSync(path.join(dir, pdfPath), forged);
    expect(await verifyAudit(connection.db, org.id, dir)).toMatchObject({ ok: false, entries: 4, first_broken: 3 });
    // Recording the forged file's hash on the document as well does not help: the log entry keeps the first one.
    await connection.db
      .updateTable('documents')
      .set({ pdf_sha256: createHash('sha256').update(forged).digest('hex'), pdf_size: forged.length })
      .where('id', '=', later)
      .execute();
    expect(await verifyAudit(connection.db, org.id, dir)).toMatchObject({ ok: false, entries: 4, first_broken: 3 });
    await connection.db.updateTable('documents').set({ total: 100 }).where('id', '=', later).execute();
    expect(await verifyAudit(connection.db, org.id, dir)).toMatchObject({ ok: false, entries: 4, first_broken: 2 });
  });
});
