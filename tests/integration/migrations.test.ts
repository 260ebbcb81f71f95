import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { createMigrator, migrateToLatest } from '../../src/server/db/migrate';

describe('migrations', () => {
  it('apply in order on a fresh file, and again as a no-op', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-migrate-'));
    const connection = openDatabase(path.join(dir, 'db.sqlite'));
    expect(await migrateToLatest(connection.db)).toEqual([
      '0001_init',
      '0002_reference_data',
      '0003_items',
      '0004_search',
      '0005_tags',
      '0006_currencies',
      '0007_documents',
      '0008_line_amounts',
      '0009_idempotency',
      '0010_audit_log',
      '0012_template_snapshot',
      '0013_pdf_archive',
      '0014_shipping_tax',
    ]);
    expect(await migrateToLatest(connection.db)).toEqual([]);
    await connection.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('0002 gives organisations that existed before it the French VAT rates and units', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-migrate-'));
    const connection = openDatabase(path.join(dir, 'db.sqlite'));
    await createMigrator(connection.db).migrateTo('0001_init');
    const now = new Date().toISOString();
    await connection.db.insertInto('organizations').values({ name: 'Ancienne SARL', created_at: now, updated_at: now }).execute();
    await migrateToLatest(connection.db);
    const rates = await connection.db.selectFrom('taxes').select(['rate']).orderBy('position').execute();
    expect(rates.map((r) => r.rate)).toEqual(['20', '10', '5.5', '2.1', '0']);
    expect(await connection.db.selectFrom('units').select('name').execute()).toHaveLength(7);
    await connection.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  it('0008 gives lines saved before it their amounts, so a document issued before it still displays', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-migrate-'));
    const connection = openDatabase(path.join(dir, 'db.sqlite'));
    await createMigrator(connection.db).migrateTo('0007_documents');
    const now = new Date().toISOString();
    const org = await connection.db
      .insertInto('organizations')
      .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const doc = await connection.db
      .insertInto('documents')
      .values({
        organization_id: org.id,
        type: 'invoice',
        kind: 'standard',
        status: 'unpaid',
        number: 'F-0001',
        counter: 1,
        uuid: '00000000-0000-4000-8000-000000000001',
        date: '2026-01-05',
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
        customer_name: '',
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
        subtotal: 4050000,
        discount: 0,
        tax: 810000,
        shipping: 0,
        total: 4860000,
        deposits: 0,
        paid: 0,
        amount_due: 4860000,
        issued_at: now,
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
        quantity: '3',
        unit: 'h',
        unit_price: '150',
        discount_type: 'percent',
        discount_value: '10',
        taxes: JSON.stringify([{ title: 'TVA 20 %', rate: 20 }]),
        kind: 'service',
      })
      .execute();
    await migrateToLatest(connection.db);
    const line = await connection.db.selectFrom('document_items').select('amounts').executeTakeFirstOrThrow();
    expect(JSON.parse(line.amounts ?? 'null')).toEqual({
      price: 150,
      net_price: 135,
      subtotal: 450,
      discount: 45,
      gross_total: 405,
      tax: 81,
      total: 486,
    });
    await connection.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('0014 keeps the untaxed shipping of documents issued before it; drafts follow the main rate from their next save', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-migrate-'));
    const connection = openDatabase(path.join(dir, 'db.sqlite'));
    await createMigrator(connection.db).migrateTo('0013_pdf_archive');
    const now = new Date().toISOString();
    const org = await connection.db
      .insertInto('organizations')
      .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = (status: string, n: number) => ({
      organization_id: org.id,
      type: 'invoice' as const,
      kind: 'standard' as const,
      status,
      number: status === 'draft' ? null : `F-000${n}`,
      counter: status === 'draft' ? null : n,
      uuid: `00000000-0000-4000-8000-00000000000${n}`,
      date: '2026-01-05',
      maturity: null,
      sale_date: null,
      condition: '',
      header: '',
      footer: '',
      terms: '',
      note: '',
      discount_type: 'percent',
      discount_value: '0',
      shipping_fee: '10',
      shipping_details: '',
      vat_exemption: '',
      additional_info: '[]',
      deposit_request: '[]',
      customer_id: null,
      customer_name: '',
      order_id: null,
      currency: 'EUR',
      price_mode: 'ht',
      origin_id: null,
      corrects_id: null,
      deducted_by_id: null,
      seller_snapshot: null,
      customer_snapshot: null,
      legal_mentions: '[]',
      tax_groups: JSON.stringify([{ title: 'TVA 20 %', rate: 20, taxable_amount: 100, amount: 20 }]),
      subtotal: 1000000,
      discount: 0,
      tax: 200000,
      shipping: 100000,
      total: 1300000,
      deposits: 0,
      paid: 0,
      amount_due: 1300000,
      issued_at: status === 'draft' ? null : now,
      sent_at: null,
      viewed_at: null,
      created_at: now,
      updated_at: now,
    });
    await connection.db
      .insertInto('documents')
      .values([row('unpaid', 1), row('draft', 2)])
      .execute();
    await migrateToLatest(connection.db);
    const docs = await connection.db
      .selectFrom('documents')
      .select(['status', 'shipping_tax', 'shipping_tax_auto', 'tax', 'total'])
      .orderBy('id')
      .execute();
    // Stored totals untouched: 100 + 10 untaxed shipping + 20 of VAT, as issued.
    expect(docs).toEqual([
      { status: 'unpaid', shipping_tax: null, shipping_tax_auto: 0, tax: 200000, total: 1300000 },
      { status: 'draft', shipping_tax: null, shipping_tax_auto: 1, tax: 200000, total: 1300000 },
    ]);
    await connection.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
