import { describe, expect, it } from 'vitest';
import { copyDocumentIn, onPostgres, openEmptyTestDatabase } from '../helpers/database';
import { createMigrator, migrateToLatest } from '../../src/server/migrate';
import { type Insertable, sql } from 'kysely';
import type { DocumentsTable } from '../../src/server/db/schema';
import type { Db } from '../../src/server/db/connection';
import { documentIdsMatching, searchEntries, searchRowid } from '../../src/server/db/queries/search';
import { searchTerms } from '../../src/server/db/dialect';

/** A unique index's refusal, in each database's words. */
const UNIQUE_REFUSED = /UNIQUE constraint failed|duplicate key value violates unique constraint/;

describe('migrations', () => {
  it('apply in order on a fresh file, and again as a no-op', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
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
      '0015_document_references',
      '0016_unique_numbers',
      '0017_audit_backfill',
      '0019_einvoice_lifecycle',
      '0020_expenses',
      '0021_recurring_expenses',
      '0024_quote_responses',
      '0025_expense_category_archive',
      '0026_payment_reminders',
      '0027_recurring_invoices',
      '0028_appointments',
      '0029_report_rates',
      '0030_report_shares',
      '0031_team',
      '0032_devices',
      '0033_supplier_credit_notes',
      '0034_api_keys',
      '0035_webhooks',
      '0036_list_indexes',
      '0037_subscriptions',
      '0038_report_aggregates',
      '0039_pending_plan_change',
      '0040_search_by_organization',
      '0041_shared_rate_limits',
      '0042_postgres_list_speed',
      '0043_documents_created_index',
      '0044_einvoicing_settings',
      '0045_einvoice_flows',
      '0046_einvoice_inbox',
      '0047_einvoice_status_flows',
      '0048_bank',
      '0049_expense_reverse_charge',
      '0050_card_payments',
      '0051_ereporting',
      '0052_credit_allocations',
      '0053_supplier_books',
      '0054_webhook_reliability',
      '0055_audit_closings',
      '0056_bank_account_from_profile',
      '0057_bank_statement_balance',
      '0062_sender_addresses',
      '0063_own_directory',
      '0064_ereporting_purchases',
      '0065_data_generations',
      '0066_document_summaries',
      '0069_vat_ledger',
      '0070_ordered_generations_grouped_summaries',
      '0072_vat_ledger_line_index',
      '0073_remindable_index',
      '0074_turnover_summaries',
      '0075_receipt_summaries',
      '0076_search_words_by_organization',
      '0077_reminder_summaries',
      '0078_search_index_vocabulary',
      '0079_list_sort_indexes',
      '0080_reminder_addresses',
      '0081_search_newest_documents',
      '0082_overdue_customers_covered',
      '0083_search_index_terms',
    ]);
    expect(await migrateToLatest(connection.db)).toEqual([]);
    await empty.remove();
  });

  it('0031 keeps the memberships and sessions that existed before it (their role unchanged), and accepts accountants', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0029_report_rates');
    const now = new Date().toISOString();
    const db = connection.db;
    const org = await db
      .insertInto('organizations')
      .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await db
      .insertInto('users')
      .values({
        first_name: 'A',
        last_name: 'B',
        email: 'a@exemple.fr',
        password_hash: 'x',
        email_verified_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into memberships (user_id, organization_id, role, created_at) values (${user.id}, ${org.id}, 'owner', ${now})`.execute(
      db,
    );
    await sql`insert into sessions (id, user_id, organization_id, expires_at, created_at) values ('s1', ${user.id}, ${org.id}, '2999-01-01T00:00:00.000Z', ${now})`.execute(
      db,
    );
    await expect(
      sql`insert into memberships (user_id, organization_id, role, created_at) values (${user.id}, ${org.id}, 'accountant', ${now})`.execute(
        db,
      ),
    ).rejects.toThrow();
    await migrateToLatest(db);
    expect(await db.selectFrom('memberships').select(['user_id', 'role']).execute()).toEqual([{ user_id: user.id, role: 'owner' }]);
    expect(await db.selectFrom('sessions').select(['id', 'user_agent', 'ip', 'last_seen_at']).execute()).toEqual([
      { id: 's1', user_agent: '', ip: '', last_seen_at: null },
    ]);
    const other = await db
      .insertInto('organizations')
      .values({ name: 'Cabinet', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('memberships')
      .values({ user_id: user.id, organization_id: other.id, role: 'accountant', created_at: now })
      .execute();
    // Still one membership per user and organisation.
    await expect(
      db.insertInto('memberships').values({ user_id: user.id, organization_id: other.id, role: 'admin', created_at: now }).execute(),
    ).rejects.toThrow();
    await empty.remove();
  });

  it('0064 keeps the e-reporting reports written before it, their ids and uniqueness, and accepts purchases', async () => {
    const empty = openEmptyTestDatabase();
    const db = empty.connection.db;
    await createMigrator(db).migrateTo('0063_own_directory');
    const now = new Date().toISOString();
    const org = await db
      .insertInto('organizations')
      .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const report = (kind: string, version: number) =>
      sql`insert into ereporting_reports (organization_id, period, kind, version, type_code, tracking_id, xml, amount, state, flow_id, ack_status, errors, created_at, updated_at)
        values (${org.id}, '2026-09', ${kind}, ${version}, 'IN', ${`t-${kind}-${version}`}, '<Report/>', 10000, 'sent', 'F1', 'Ok', '[]', ${now}, ${now})`.execute(
        db,
      );
    await report('international', 1);
    await expect(report('purchases', 1)).rejects.toThrow();
    const before = await db.selectFrom('ereporting_reports').select(['id', 'kind', 'flow_id', 'ack_status']).execute();
    await migrateToLatest(db);
    expect(await db.selectFrom('ereporting_reports').select(['id', 'kind', 'flow_id', 'ack_status']).execute()).toEqual(before);
    await report('purchases', 1);
    await expect(report('purchases', 1)).rejects.toThrow(UNIQUE_REFUSED);
    await expect(report('sales', 1)).rejects.toThrow();
    await empty.remove();
  });

  it('0002 gives organisations that existed before it the French VAT rates and units', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0001_init');
    const now = new Date().toISOString();
    await connection.db.insertInto('organizations').values({ name: 'Ancienne SARL', created_at: now, updated_at: now }).execute();
    await migrateToLatest(connection.db);
    const rates = await connection.db.selectFrom('taxes').select(['rate']).orderBy('position').execute();
    expect(rates.map((r) => r.rate)).toEqual(['20', '10', '5.5', '2.1', '0']);
    expect(await connection.db.selectFrom('units').select('name').execute()).toHaveLength(7);
    await empty.remove();
  });
  it('0008 gives lines saved before it their amounts, so a document issued before it still displays', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0007_documents');
    const now = new Date().toISOString();
    const org = await connection.db
      .insertInto('organizations')
      .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const doc = await connection.db.insertInto('documents').values(legacyDocument(org.id, now)).returning('id').executeTakeFirstOrThrow();
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
    await empty.remove();
  });

  it('0014 keeps the untaxed shipping of documents issued before it; drafts follow the main rate from their next save', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
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
    await empty.remove();
  });

  it('0015 gives documents saved before it the delivery address they printed: the snapshot’s, else the customer’s', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0013_pdf_archive');
    const now = new Date().toISOString();
    const db = connection.db;
    const org = await db
      .insertInto('organizations')
      .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const billing = { line1: '3 place du Marché', line2: '', city: 'Lyon', state: '', postal_code: '69002', country: 'France' };
    const quai = { ...billing, line1: '18 quai Saint-Antoine' };
    const customer = (number: string, shipping: typeof billing) =>
      db
        .insertInto('customers')
        .values({
          organization_id: org.id,
          number,
          type: 'company',
          name: `Client ${number}`,
          legal_name: '',
          email: '',
          phone: '',
          mobile: '',
          web: '',
          business_id: '',
          vat_number: '',
          address: JSON.stringify(billing),
          address_city: 'Lyon',
          shipping: JSON.stringify(shipping),
          contacts: '[]',
          language: 'fr',
          currency: 'EUR',
          maturity: 30,
          note: '',
          description: '',
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const elsewhere = await customer('CL-1', quai);
    const same = await customer('CL-2', billing);
    const uuid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    const draftRow = { status: 'draft', number: null, counter: null, issued_at: null };
    const snapshot = (shipping: typeof billing) => JSON.stringify({ name: 'Client', address: billing, shipping });
    const rows = [
      legacyDocument(org.id, now, { ...draftRow, uuid: uuid(1), customer_id: elsewhere.id }),
      legacyDocument(org.id, now, { ...draftRow, uuid: uuid(2), customer_id: same.id }),
      // Issued: what its snapshot printed, even if the customer moved since.
      legacyDocument(org.id, now, { uuid: uuid(3), customer_id: same.id, customer_snapshot: snapshot(quai) }),
      legacyDocument(org.id, now, { uuid: uuid(4), number: 'F-0002', customer_id: elsewhere.id, customer_snapshot: snapshot(billing) }),
    ];
    for (const row of rows) await db.insertInto('documents').values(row).execute();

    await migrateToLatest(db);
    const after = await db.selectFrom('documents').select(['uuid', 'delivery_address', 'purchase_order']).orderBy('uuid').execute();
    expect(after.map((d) => (d.delivery_address ? JSON.parse(d.delivery_address).line1 : null))).toEqual([
      '18 quai Saint-Antoine',
      null,
      '18 quai Saint-Antoine',
      null,
    ]);
    expect(after.map((d) => d.purchase_order)).toEqual(['', '', '', '']);
    await empty.remove();
  });

  it('0016 makes a number unique across all types of an organisation, keeping a legacy duplicate as it is', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0013_pdf_archive');
    const now = new Date().toISOString();
    const orgs = await connection.db
      .insertInto('organizations')
      .values([
        { name: 'Ancienne SARL', created_at: now, updated_at: now },
        { name: 'Autre SAS', created_at: now, updated_at: now },
      ])
      .returning('id')
      .execute();
    const [org, other] = orgs.map((o) => o.id);
    let serial = 0;
    // The columns without a default, as 0013 left the table.
    const insert = (organizationId: number | undefined, type: string, number: string) => {
      serial += 1;
      return sql`INSERT INTO documents (organization_id, type, status, number, counter, uuid, date, condition, header, footer, terms,
        note, shipping_fee, shipping_details, additional_info, deposit_request, customer_name, currency, price_mode, tax_groups,
        subtotal, discount, tax, shipping, total, deposits, paid, amount_due, created_at, updated_at)
        VALUES (${organizationId}, ${type}, 'pending', ${number}, 1, ${`uuid-${serial}`}, '2026-01-05', '', '', '', '', '', '0', '',
        '[]', '[]', '', 'EUR', 'ht', '[]', 0, 0, 0, 0, 0, 0, 0, 0, ${now}, ${now})`.execute(connection.db);
    };
    await insert(org, 'invoice', 'A-0001');
    await insert(org, 'credit', 'A-0001');
    await migrateToLatest(connection.db);
    const kept = await connection.db.selectFrom('documents').select(['type', 'number']).orderBy('id').execute();
    expect(kept).toEqual([
      { type: 'invoice', number: 'A-0001' },
      { type: 'credit', number: 'A-0001' },
    ]);
    // A third holder of the legacy number, or a number taken by another type, is refused by the database itself.
    await expect(insert(org, 'estimate', 'A-0001')).rejects.toThrow(UNIQUE_REFUSED);
    await insert(org, 'invoice', 'B-0001');
    await expect(insert(org, 'order', 'B-0001')).rejects.toThrow(UNIQUE_REFUSED);
    // Another organisation may use the same number; drafts have none.
    await insert(other, 'invoice', 'B-0001');
    await insert(org, 'invoice', 'C-0001');
    await empty.remove();
  });

  it('0029 gives documents issued before it today’s rate of their currency (1 in the base), drafts none', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0024_quote_responses');
    const now = new Date().toISOString();
    const org = (
      await connection.db
        .insertInto('organizations')
        .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await connection.db
      .insertInto('currencies')
      .values({ organization_id: org, code: 'USD', rate: '1.085', rate_date: '2026-01-02', created_at: now, updated_at: now })
      .execute();
    const doc = (n: number, currency: string, number: string | null) =>
      legacyDocument(org, now, { currency, number, uuid: `00000000-0000-4000-8000-00000000000${n}`, status: number ? 'unpaid' : 'draft' });
    await connection.db
      .insertInto('documents')
      .values([doc(1, 'EUR', 'F-0001'), doc(2, 'USD', 'F-0002'), doc(3, 'GBP', 'F-0003'), doc(4, 'USD', null)])
      .execute();
    await migrateToLatest(connection.db);
    const rows = await connection.db.selectFrom('documents').select(['currency', 'exchange_rate']).orderBy('id').execute();
    expect(rows).toEqual([
      { currency: 'EUR', exchange_rate: '1' },
      { currency: 'USD', exchange_rate: '1.085' },
      { currency: 'GBP', exchange_rate: null }, // no longer enabled: read at today's rate, or the report says it lacks one
      { currency: 'USD', exchange_rate: null },
    ]);
    await empty.remove();
  });

  it('0030 keeps on each document written before it the HT of its goods and of all its lines, and whether it has a service', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0029_report_rates');
    const now = new Date().toISOString();
    const org = (
      await connection.db
        .insertInto('organizations')
        .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const ids = [];
    for (const n of [1, 2])
      ids.push(
        (
          await connection.db
            .insertInto('documents')
            .values(legacyDocument(org, now, { number: `F-000${n}`, uuid: `00000000-0000-4000-8000-00000000000${n}` }))
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const line = (documentId: number, position: number, kind: string, net: number) => ({
      document_id: documentId,
      position,
      code: '',
      sku: '',
      item: 'Ligne',
      description: '',
      quantity: '1',
      unit: '',
      unit_price: String(net),
      discount_type: 'percent',
      discount_value: '0',
      taxes: '[]',
      kind,
      amounts: JSON.stringify({ price: net, net_price: net, subtotal: net, discount: 0, gross_total: net, tax: 0, total: net }),
    });
    await connection.db
      .insertInto('document_items')
      .values([line(ids[0] ?? 0, 0, 'service', 100.5), line(ids[0] ?? 0, 1, 'goods', 49.99), line(ids[1] ?? 0, 0, 'goods', 12)])
      .execute();
    await migrateToLatest(connection.db);
    const rows = await connection.db.selectFrom('documents').select(['goods_net', 'lines_net', 'has_services']).orderBy('id').execute();
    expect(rows).toEqual([
      { goods_net: 499_900, lines_net: 1_504_900, has_services: 1 },
      { goods_net: 120_000, lines_net: 120_000, has_services: 0 },
    ]);
    await empty.remove();
  });
  it('0056 makes the IBAN typed in the profile its default bank account, and leaves an IBAN that fails its check', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    const { db } = connection;
    await createMigrator(db).migrateTo('0049_expense_reverse_charge');
    const now = '2026-05-01T10:00:00.000Z';
    const organization = async (name: string, additional_info: { key: string; value: string }[]) => {
      const id = (
        await db.insertInto('organizations').values({ name, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()
      ).id;
      const profile = { name, identifications: [{ key: 'Code APE', value: '7410Z' }], additional_info };
      await db
        .insertInto('settings')
        .values({ organization_id: id, key: 'organization', value: JSON.stringify(profile), updated_at: now })
        .execute();
      return id;
    };
    const typed = await organization('Atelier Fontaine', [
      { key: 'IBAN', value: 'fr76 3000 6000 0112 3456 7890 189' },
      { key: 'BIC', value: 'bnpafrpp' },
      { key: 'Titulaire', value: 'Jeanne Fontaine EI' },
      { key: 'Bon à savoir', value: 'Paiement à réception' },
    ]);
    const mistyped = await organization('Coquille SARL', [{ key: 'IBAN', value: 'FR76 3000 6000 0112 3456 7890 188' }]);
    const none = await organization('Sans banque', []);
    await migrateToLatest(db);

    const accounts = await db.selectFrom('bank_accounts').select(['organization_id', 'name', 'iban', 'bic', 'is_default']).execute();
    expect(accounts).toEqual([
      { organization_id: typed, name: 'Compte principal', iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP', is_default: 1 },
    ]);
    const profileOf = async (id: number) =>
      JSON.parse(
        (
          await db
            .selectFrom('settings')
            .select('value')
            .where('organization_id', '=', id)
            .where('key', '=', 'organization')
            .executeTakeFirstOrThrow()
        ).value,
      );
    // Moved out so as not to print twice; what is not the account stays, « Titulaire » naming whom it is made out to.
    expect((await profileOf(typed)).additional_info).toEqual([
      { key: 'Titulaire', value: 'Jeanne Fontaine EI' },
      { key: 'Bon à savoir', value: 'Paiement à réception' },
    ]);
    expect((await profileOf(typed)).identifications).toEqual([{ key: 'Code APE', value: '7410Z' }]);
    expect((await profileOf(mistyped)).additional_info).toEqual([{ key: 'IBAN', value: 'FR76 3000 6000 0112 3456 7890 188' }]);
    expect((await profileOf(none)).additional_info).toEqual([]);
    await empty.remove();
  });

  it('0033 makes past expenses plain expenses, and leaves « à vérifier » only the imported ones never saved since', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0029_report_rates');
    const now = '2026-05-01T10:00:00.000Z';
    const org = (
      await connection.db
        .insertInto('organizations')
        .values({ name: 'Ancienne SARL', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const expense = (source: string, updated_at: string, sha: string | null) => ({
      organization_id: org,
      date: '2026-04-02',
      supplier: 'Fournisseur',
      supplier_siren: '',
      supplier_vat_number: '',
      category: 'autres',
      label: '',
      amount: 1200000,
      vat: '[]',
      vat_total: 0,
      deductible_vat: 0,
      currency: 'EUR',
      payment_method: 'transfer',
      status: 'unpaid',
      invoice_number: '',
      note: '',
      tags: '[]',
      source,
      source_sha256: sha,
      created_at: now,
      updated_at,
    });
    await connection.db
      .insertInto('expenses')
      .values([
        expense('einvoice', now, 'a'),
        expense('einvoice', '2026-05-02T09:00:00.000Z', 'b'), // saved since: its category was confirmed
        expense('manual', now, null),
      ])
      .execute();
    await migrateToLatest(connection.db);
    const rows = await connection.db
      .selectFrom('expenses')
      .select(['kind', 'amount', 'category_to_check', 'corrects_id', 'preceding_invoice_number'])
      .orderBy('id')
      .execute();
    const plain = { kind: 'expense', amount: 1200000, corrects_id: null, preceding_invoice_number: '' };
    expect(rows).toEqual([
      { ...plain, category_to_check: 1 },
      { ...plain, category_to_check: 0 },
      { ...plain, category_to_check: 0 },
    ]);
    await empty.remove();
  });
});

// 0040 rebuilds SQLite's FTS5 tables; on PostgreSQL it does nothing (its search table is keyed by organisation from 0004).
describe.skipIf(onPostgres)('migration 0040', () => {
  it('keys the search entries by organisation, keeps every entry, and indexes the issued numbers for any part of them', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0037_subscriptions');
    const db = connection.db;
    const now = '2026-05-01T10:00:00.000Z';
    const { mine, theirs, issuedMine, draftMine, issuedTheirs } = await twoOrganisationsNumbered(db, now);
    // Entries as 0004 keyed them (id * 8 + kind code), with the organisation bound as a double, as better-sqlite3 did.
    const entry = (organizationId: number, kind: string, refId: number, code: number, title: string) =>
      sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body)
        values (${refId * 8 + code}, ${organizationId}, ${kind}, ${refId}, ${title}, 'Facture · Fontaine', 'Fontaine')`.execute(db);
    await entry(mine, 'document', issuedMine, 2, 'FAC-2026-01552');
    await entry(mine, 'document', draftMine, 2, 'Brouillon (Facture)');
    await entry(theirs, 'document', issuedTheirs, 2, 'FAC-2026-01552');
    await entry(mine, 'customer', 7, 0, 'Fontaine');

    await migrateToLatest(db);
    const rows = await sql<{
      rowid: number;
      kind: string;
      ref_id: number;
    }>`select rowid, kind, ref_id from search_index order by rowid`.execute(db);
    expect(rows.rows).toEqual([
      { rowid: Number(searchRowid(mine, 'customer', 7)), kind: 'customer', ref_id: 7 },
      { rowid: Number(searchRowid(mine, 'document', issuedMine)), kind: 'document', ref_id: issuedMine },
      { rowid: Number(searchRowid(mine, 'document', draftMine)), kind: 'document', ref_id: draftMine },
      { rowid: Number(searchRowid(theirs, 'document', issuedTheirs)), kind: 'document', ref_id: issuedTheirs },
    ]);
    expect(await documentIdsMatching(db, mine, '1552')).toEqual([issuedMine]); // inside a word: the numbers' trigrams
    expect(await documentIdsMatching(db, theirs, '2026-015')).toEqual([issuedTheirs]);
    expect((await documentIdsMatching(db, mine, 'fontaine'))?.sort()).toEqual([issuedMine, draftMine].sort());
    expect((await searchEntries(db, { organizationId: mine, text: 'fontaine', limit: 20 })).map((r) => [r.kind, r.id])).toEqual([
      ['customer', 7],
      ['document', draftMine],
      ['document', issuedMine],
    ]);
    await empty.remove();
  });
});

// 0076 rewrites SQLite's FTS5 words as each organisation's own; PostgreSQL's search table keeps its scheme.
describe.skipIf(onPostgres)('migration 0076', () => {
  it('rewrites every entry with its organisation’s words, keeping rowids, shown texts and the numbers’ index', async () => {
    const empty = openEmptyTestDatabase();
    const db = empty.connection.db;
    await createMigrator(db).migrateTo('0075_receipt_summaries');
    const { mine, theirs, issuedMine, draftMine, issuedTheirs } = await twoOrganisationsNumbered(db, '2026-05-01T10:00:00.000Z');
    // Entries as 0040 left them: every organisation's words shared in one vocabulary.
    const entry = (organizationId: number, kind: 'customer' | 'document', refId: number, title: string, subtitle: string) =>
      sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body)
        values (${searchRowid(organizationId, kind, refId)}, ${organizationId}, ${kind}, ${refId}, ${title}, ${subtitle}, 'Jean-Paul Fontaine')`.execute(
        db,
      );
    await entry(mine, 'document', issuedMine, 'FAC-2026-01552', 'Facture · Fontaine');
    await entry(mine, 'document', draftMine, 'Brouillon (Facture)', 'Fontaine');
    await entry(theirs, 'document', issuedTheirs, 'FAC-2026-01552', 'Facture · Fontaine');
    await entry(mine, 'customer', 7, 'Éléonore Fontaine', 'CL-00007');
    await entry(theirs, 'customer', 8, 'Éléonore Fontaine', 'CL-00008');
    await sql`insert into document_numbers (rowid, number) values (${searchRowid(mine, 'document', issuedMine)}, 'FAC-2026-01552')`.execute(
      db,
    );
    const shown = sql`select rowid, organization_id, kind, ref_id, title, subtitle, body from search_index order by rowid`;
    const before = (await shown.execute(db)).rows;

    await migrateToLatest(db);
    expect((await shown.execute(db)).rows).toEqual(before);
    const search = async (organizationId: number, text: string) =>
      (await searchEntries(db, { organizationId, text, limit: 20 })).map((r) => [r.kind, r.id]);
    expect(await search(mine, 'ÉLEO font')).toEqual([['customer', 7]]);
    expect(await search(mine, 'font')).toEqual([
      ['customer', 7],
      ['document', draftMine],
      ['document', issuedMine],
    ]);
    expect(await search(theirs, 'jean-paul')).toEqual([
      ['customer', 8],
      ['document', issuedTheirs],
    ]);
    expect(await documentIdsMatching(db, mine, '1552')).toEqual([issuedMine]); // the numbers' trigrams, untouched
    expect((await documentIdsMatching(db, theirs, 'fontaine'))?.sort()).toEqual([issuedTheirs]);
    await empty.remove();
  });
});

describe.skipIf(onPostgres)('migration 0079', () => {
  it('adds each document’s type to its entry as a word of its own, whatever the organisation’s stored type, and takes it back down', async () => {
    const empty = openEmptyTestDatabase();
    const db = empty.connection.db;
    await createMigrator(db).migrateTo('0078_search_index_vocabulary');
    const { mine, theirs, issuedMine, issuedTheirs } = await twoOrganisationsNumbered(db, '2026-05-01T10:00:00.000Z');
    await db.updateTable('documents').set({ type: 'credit' }).where('id', '=', issuedTheirs).execute();
    // The organisation stored as a real, as some writers left it: the word must still read `o{id}t…`.
    const entry = (organizationId: number, refId: number) =>
      sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body, heading, body_words)
        values (${searchRowid(organizationId, 'document', refId)}, cast(${organizationId} as real), 'document', ${refId}, 'FAC-2026-01552',
          'Facture · Fontaine', 'Fontaine', ${`o${organizationId}dFAC o${organizationId}d2026 o${organizationId}d01552`}, ${`o${organizationId}dFontaine`})`.execute(
        db,
      );
    await entry(mine, issuedMine);
    await entry(theirs, issuedTheirs);
    const words = async () =>
      (await sql<{ body_words: string }>`select body_words from search_index order by rowid`.execute(db)).rows.map((r) => r.body_words);
    const before = await words();

    await migrateToLatest(db);
    expect(await words()).toEqual([`o${mine}dFontaine o${mine}tinvoice`, `o${theirs}dFontaine o${theirs}tcredit`]);
    const terms = await sql<{ term: string }>`select term from search_index_vocabulary where col = 'body_words' order by term`.execute(db);
    expect(terms.rows.map((r) => r.term).filter((term) => /^o\d+t/.test(term))).toEqual([`o${mine}tinvoice`, `o${theirs}tcredit`].sort());

    await createMigrator(db).migrateTo('0078_search_index_vocabulary');
    expect(await words()).toEqual(before);
    await empty.remove();
  });
});

describe.skipIf(onPostgres)('migration 0043', () => {
  it('on an analysed database, measures its index: a list page is still read in order, the month counted on the new index', async () => {
    const empty = openEmptyTestDatabase();
    const db = empty.connection.db;
    await createMigrator(db).migrateTo('0042_postgres_list_speed');
    const { mine, issuedMine } = await twoOrganisationsNumbered(db, '2026-05-01T10:00:00.000Z');
    await copyDocumentIn(db, issuedMine, 2000);
    await sql`analyze`.execute(db);
    await migrateToLatest(db);
    const plan = async (query: string) =>
      (await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(db)).rows.map((r) => r.detail).join('; ');
    expect(await plan(`select id from documents where organization_id = ${mine} order by date desc, id desc limit 10`)).toBe(
      'SEARCH documents USING COVERING INDEX documents_org_date_idx (organization_id=?)',
    );
    expect(await plan(`select count(*) from documents where organization_id = ${mine} and created_at >= '2026-05-01'`)).toBe(
      'SEARCH documents USING COVERING INDEX documents_org_created_idx (organization_id=? AND created_at>?)',
    );
    await empty.remove();
  });
});

// 0042 is PostgreSQL's: the documents generations (kept list counts) and the numbers' suffixes (search inside numbers).
describe.skipIf(!onPostgres)('migration 0042', () => {
  it('indexes the numbers already issued by their suffixes, and bumps an organisation’s generation once per writing transaction', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0041_shared_rate_limits');
    const db = connection.db;
    const now = '2026-05-01T10:00:00.000Z';
    const { mine, theirs, issuedMine, draftMine, issuedTheirs } = await twoOrganisationsNumbered(db, now);
    // Entries as 0004 wrote them on PostgreSQL (rowid = id * 8 + 2), without number parts.
    const entry = (organizationId: number, refId: number, title: string) =>
      sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body, heading, words)
        values (${refId * 8 + 2}, ${organizationId}, 'document', ${refId}, ${title}, 'Facture · Fontaine', 'Fontaine',
          to_tsvector('simple', ${searchTerms(title)}), to_tsvector('simple', ${searchTerms(title)}))`.execute(db);
    await entry(mine, issuedMine, 'FAC-2026-01552');
    await entry(mine, draftMine, 'Brouillon (Facture)');
    await entry(theirs, issuedTheirs, 'FAC-2026-01552');

    await migrateToLatest(db);
    expect(await documentIdsMatching(db, mine, '1552')).toEqual([issuedMine]); // inside a word: a suffix's start
    expect(await documentIdsMatching(db, theirs, 'c-2026-015')).toEqual([issuedTheirs]);
    expect(await documentIdsMatching(db, mine, 'ouillon')).toEqual([]); // a draft's title is no number
    expect(await documentIdsMatching(db, mine, "15'5")).toEqual([]); // a quote is text, not tsquery syntax
    expect(await documentIdsMatching(db, mine, '2026')).toEqual([issuedMine]); // a word of the number, as before

    const generations = async () =>
      (
        await sql<{ organization_id: number; generation: number }>`select organization_id, generation from document_generations
        order by organization_id`.execute(db)
      ).rows;
    expect(await generations()).toEqual([]);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('documents').set({ note: 'a' }).where('organization_id', '=', mine).execute();
      await trx.updateTable('documents').set({ note: 'b' }).where('id', '=', issuedMine).execute();
    });
    expect(await generations()).toEqual([{ organization_id: mine, generation: 1 }]); // one transaction, three row writes
    await db.deleteFrom('documents').where('id', '=', draftMine).execute();
    await db.updateTable('documents').set({ note: 'c' }).where('id', '=', issuedTheirs).execute();
    expect(await generations()).toEqual([
      { organization_id: mine, generation: 2 },
      { organization_id: theirs, generation: 1 },
    ]);
    await empty.remove();
  });
});

/** A document row as migration 0007 made them (issued, no customer), for the migrations that rework documents. */
/** Two organisations as an older schema held them, each with an invoice numbered FAC-2026-01552, and a draft of mine. */
async function twoOrganisationsNumbered(db: Db, now: string) {
  const org = async (name: string) =>
    (await db.insertInto('organizations').values({ name, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id;
  const [mine, theirs] = [await org('Mienne SARL'), await org('Autre SARL')];
  const document = async (organizationId: number, number: string | null, n: number) =>
    (
      await db
        .insertInto('documents')
        .values(legacyDocument(organizationId, now, { number, uuid: `00000000-0000-4000-8000-00000000000${n}`, counter: n }))
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const issuedMine = await document(mine, 'FAC-2026-01552', 1);
  const draftMine = await document(mine, null, 2);
  const issuedTheirs = await document(theirs, 'FAC-2026-01552', 3);
  return { mine, theirs, issuedMine, draftMine, issuedTheirs };
}

function legacyDocument(organizationId: number, now: string, over: Partial<Insertable<DocumentsTable>> = {}): Insertable<DocumentsTable> {
  return {
    organization_id: organizationId,
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
    ...over,
  };
}
