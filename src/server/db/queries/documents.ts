import type { Db } from '../connection';
import type { DocumentsTable } from '../schema';
import {
  changeColumns,
  contentColumns,
  documentOfRow,
  lineColumns,
  partyJson,
  type DocumentChanges,
  type DocumentRow,
  type NewDocument,
  type NewDocumentLine,
} from './document-mapping';
import type { StoredDocument } from '../../../shared/schemas/document-model';

/** A document's reads and writes; rows become domain documents in document-mapping.ts, lists in document-lists.ts. */

/** Writes a new document and its lines, in the caller's transaction. */
export async function insertDocument(db: Db, doc: NewDocument): Promise<number> {
  const { content, seller, customer, legal_mentions, ...own } = doc;
  const inserted = await db
    .insertInto('documents')
    .values({
      ...own,
      ...contentColumns(content),
      seller_snapshot: partyJson(seller),
      customer_snapshot: partyJson(customer),
      legal_mentions: JSON.stringify(legal_mentions),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await replaceDocumentItems(db, { documentId: inserted.id, items: content.items });
  return inserted.id;
}

/**
 * Updates a document (and its lines when the content changes: run it in a transaction then); with `expected`, only
 * while it still is as it was read (else nothing changes and 0 is answered).
 */
export async function updateDocument(
  db: Db,
  params: { organizationId: number; id: number; changes: DocumentChanges; expected?: { status: string; updated_at: string } },
): Promise<number> {
  let query = db
    .updateTable('documents')
    .set(changeColumns(params.changes))
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id);
  if (params.expected) query = query.where('status', '=', params.expected.status).where('updated_at', '=', params.expected.updated_at);
  const result = await query.executeTakeFirst();
  const changed = Number(result.numUpdatedRows);
  if (changed > 0 && params.changes.content) await replaceDocumentItems(db, { documentId: params.id, items: params.changes.content.items });
  return changed;
}

async function replaceDocumentItems(db: Db, params: { documentId: number; items: NewDocumentLine[] }): Promise<void> {
  await db.deleteFrom('document_items').where('document_id', '=', params.documentId).execute();
  // SQLite caps bound parameters per statement: insert in chunks.
  for (let start = 0; start < params.items.length; start += 50) {
    const chunk = params.items
      .slice(start, start + 50)
      .map((item, k) => ({ ...lineColumns(item), document_id: params.documentId, position: start + k }));
    await db.insertInto('document_items').values(chunk).execute();
  }
}

async function withItems(db: Db, row: DocumentRow | undefined): Promise<StoredDocument | undefined> {
  if (!row) return undefined;
  const items = await db.selectFrom('document_items').selectAll().where('document_id', '=', row.id).orderBy('position').execute();
  return documentOfRow(row, items);
}

export async function findDocument(db: Db, params: { organizationId: number; id: number }): Promise<StoredDocument | undefined> {
  const row = await db
    .selectFrom('documents')
    .selectAll()
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return withItems(db, row);
}

export async function findDocumentByUuid(db: Db, params: { uuid: string }): Promise<StoredDocument | undefined> {
  return withItems(db, await db.selectFrom('documents').selectAll().where('uuid', '=', params.uuid).executeTakeFirst());
}

/** The latest numbered document of a series, for chronological numbering. */
export async function findLatestNumbered(db: Db, params: { organizationId: number; type: DocumentsTable['type'] }) {
  return db
    .selectFrom('documents')
    .select(['date', 'number'])
    .where('organization_id', '=', params.organizationId)
    .where('type', '=', params.type)
    .where('number', 'is not', null)
    .orderBy('counter', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The document of any type that already holds a number in the organisation (CGI art. 242 nonies A: numbers are unique). */
export async function findNumberHolder(db: Db, params: { organizationId: number; number: string }) {
  return db
    .selectFrom('documents')
    .select(['id', 'type'])
    .where('organization_id', '=', params.organizationId)
    .where('number', '=', params.number)
    .executeTakeFirst();
}

export async function deleteDocumentRow(
  db: Db,
  params: { organizationId: number; id: number; expected: { status: string; updated_at: string } },
): Promise<number> {
  const result = await db
    .deleteFrom('documents')
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .where('status', '=', params.expected.status)
    .where('updated_at', '=', params.expected.updated_at)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
