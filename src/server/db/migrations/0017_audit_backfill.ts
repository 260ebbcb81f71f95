import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { MigrationDb } from './helpers';

/**
 * Documents issued before the log existed (0010) have no issue entry, and PDFs kept before archives were logged
 * (0013) no archive entry: one of each is appended now, in issue order, marked `backfilled`, so verify covers them.
 * A migration rather than a startup step because it must run once: after it, every issue and archive writes its
 * entry in the same transaction, so an entry missing later is tampering, and a repair at each start would cover it.
 * Skipping what already has an entry makes a rerun after a crash harmless.
 *
 * The entries are written as the log wrote them when this migration was made, by the copy below, so that the result
 * never follows later changes to the application's writer:
 * - the entry's own hash is the plain SHA-256 link of the time. The keyed link came later (0055), with a key that
 *   lives outside the database; 0055 seals every chain it finds, these entries included, and the seal, signed right
 *   after the migrations, is what vouches for plain links up to it;
 * - an issue's legal hash is the SHA-256 of the same legal content that verify recomputes from the rows (the columns
 *   below; the later ones only when they carry a value, which a document issued before them never does).
 */
export async function up(db: MigrationDb): Promise<void> {
  // On PostgreSQL the migrator already runs each migration in a transaction (DDL is transactional there).
  const inTransaction = (work: (trx: MigrationDb) => Promise<void>) =>
    db.isTransaction ? work(db) : db.transaction().execute((trx: Transaction<Record<string, Record<string, unknown>>>) => work(trx));
  await inTransaction(async (trx) => {
    const logged = await trx
      .selectFrom('audit_log')
      .select(['organization_id', 'event', 'content'])
      .where('event', 'in', ['issue', 'archive'])
      .execute();
    const has = new Set(logged.map((row) => `${String(row.event)}:${Number(row.organization_id)}:${documentIdOf(row.content)}`));
    const issued = (
      await trx
        .selectFrom('documents')
        .select(['id', 'organization_id', 'type', 'number', 'currency', 'total', 'pdf_path', 'pdf_sha256', 'pdf_size'])
        .where('status', '!=', 'draft')
        .where('number', 'is not', null)
        .orderBy('issued_at')
        .orderBy('id')
        .execute()
    ).map(issuedDocumentOf);
    for (const doc of issued) {
      if (has.has(`issue:${doc.organizationId}:${doc.id}`)) continue;
      const legal = await legalContent(trx, doc.organizationId, doc.id);
      await append(trx, doc.organizationId, 'issue', { document: documentOf(doc), legal_hash: sha256(JSON.stringify(legal)) });
    }
    for (const doc of issued) {
      if (has.has(`archive:${doc.organizationId}:${doc.id}`) || !doc.pdfPath || !doc.pdfSha256 || doc.pdfSize === null) continue;
      await append(trx, doc.organizationId, 'archive', {
        document: documentOf(doc),
        pdf: { path: doc.pdfPath, sha256: doc.pdfSha256, size: doc.pdfSize },
      });
    }
  });
}

type IssuedDocument = {
  id: number;
  organizationId: number;
  type: string;
  number: string | null;
  currency: string;
  total: number;
  pdfPath: string | null;
  pdfSha256: string | null;
  pdfSize: number | null;
};

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function issuedDocumentOf(row: Record<string, unknown>): IssuedDocument {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    type: String(row.type),
    number: text(row.number),
    currency: String(row.currency),
    // Amounts are stored as integer counts of 10^-4; the log writes them as numbers.
    total: Number(row.total ?? 0) / 10_000,
    pdfPath: text(row.pdf_path),
    pdfSha256: text(row.pdf_sha256),
    pdfSize: row.pdf_size === null || row.pdf_size === undefined ? null : Number(row.pdf_size),
  };
}

/** What an entry says of its document, in this key order (the content is hashed as text). */
const documentOf = (doc: IssuedDocument) => ({
  id: doc.id,
  type: doc.type,
  number: doc.number,
  total: doc.total,
  currency: doc.currency,
});

const GENESIS_HASH = '0'.repeat(64);
const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** Appends one entry at the end of the organisation's chain, linked by plain SHA-256 (see above). */
async function append(trx: MigrationDb, organizationId: number, event: 'issue' | 'archive', details: Record<string, unknown>) {
  const at = new Date().toISOString();
  const content = JSON.stringify({ event, at, user: null, ...details, backfilled: true });
  const last = await trx
    .selectFrom('audit_log')
    .select(['sequence', 'hash'])
    .where('organization_id', '=', organizationId)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
  const sequence = (last ? Number(last.sequence) : 0) + 1;
  const previousHash = last ? String(last.hash) : GENESIS_HASH;
  const contentHash = sha256(content);
  await trx
    .insertInto('audit_log')
    .values({
      organization_id: organizationId,
      sequence,
      event,
      content,
      content_hash: contentHash,
      previous_hash: previousHash,
      hash: sha256(`${organizationId}:${sequence}:${previousHash}:${contentHash}`),
      created_at: at,
    })
    .execute();
}

/** The columns of an issued document's legal content, in the order they are hashed. */
const LEGAL_DOCUMENT_COLUMNS = [
  'type',
  'kind',
  'number',
  'counter',
  'date',
  'maturity',
  'sale_date',
  'condition',
  'header',
  'footer',
  'terms',
  'discount_type',
  'discount_value',
  'shipping_fee',
  'shipping_details',
  'vat_exemption',
  'customer_name',
  'currency',
  'price_mode',
  'corrects_id',
  'seller_snapshot',
  'customer_snapshot',
  'legal_mentions',
  'tax_groups',
  'subtotal',
  'discount',
  'tax',
  'shipping',
  'total',
  'deposits',
  'issued_at',
] as const;
/** Added to the legal content after the log began (0014, 0015): hashed only when they carry a value. */
const LATER_LEGAL_COLUMNS = ['purchase_order', 'shipping_tax'] as const;
const LEGAL_LINE_COLUMNS = [
  'position',
  'code',
  'sku',
  'item',
  'description',
  'quantity',
  'unit',
  'unit_price',
  'discount_type',
  'discount_value',
  'taxes',
  'kind',
  'amounts',
] as const;

async function legalContent(trx: MigrationDb, organizationId: number, documentId: number) {
  const document = await trx
    .selectFrom('documents')
    .select([...LEGAL_DOCUMENT_COLUMNS, ...LATER_LEGAL_COLUMNS])
    .where('organization_id', '=', organizationId)
    .where('id', '=', documentId)
    .executeTakeFirstOrThrow();
  const lines = await trx
    .selectFrom('document_items')
    .select(LEGAL_LINE_COLUMNS)
    .where('document_id', '=', documentId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  // Named key by key so the JSON that is hashed never depends on the driver's column order.
  const pick = (keys: readonly string[], row: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, row[k]]));
  const later = LATER_LEGAL_COLUMNS.filter((k) => document[k] !== '' && document[k] !== null);
  return {
    document: { ...pick(LEGAL_DOCUMENT_COLUMNS, document), ...pick(later, document) },
    lines: lines.map((line) => pick(LEGAL_LINE_COLUMNS, line)),
  };
}

function documentIdOf(content: unknown): number | undefined {
  try {
    const id = (JSON.parse(String(content)) as { document?: { id?: unknown } }).document?.id;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
