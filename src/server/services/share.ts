import type { Db } from '../db/connection';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { findDocumentRowByUuid, updateDocument, type DocumentRow } from '../db/queries/documents';
import { getDocument } from './documents';
import { getAppSettings, getDocumentTemplate } from './settings';
import { getOrganizationProfile } from './organization';

const NOT_SHARED = 'Document introuvable';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An issued document by its public uuid: the only handle a public link carries (CONTRACT.md). Drafts are never shared. */
export async function findSharedRow(db: Db, uuid: string): Promise<DocumentRow> {
  const row = UUID.test(uuid) ? await findDocumentRowByUuid(db, { uuid }) : undefined;
  if (!row || row.status === 'draft') fail('NOT_FOUND', NOT_SHARED);
  return row!;
}

/**
 * What the public page shows: that one document and what its rendering needs (template, money and address formats,
 * logo), nothing else of the organisation — no links to its other documents, no internal ids of its records.
 * Each view is recorded for the owner (`viewed_at`), unless the server itself opens it to print a PDF.
 */
export async function getSharedDocument(db: Db, uuid: string, opts: { recordView: boolean }) {
  const row = await findSharedRow(db, uuid);
  const organizationId = row.organization_id;
  const [doc, template, settings, profile] = await Promise.all([
    getDocument(db, organizationId, row.id),
    getDocumentTemplate(db, organizationId),
    getAppSettings(db, organizationId),
    getOrganizationProfile(db, organizationId),
  ]);
  if (opts.recordView) await updateDocument(db, { organizationId, id: row.id, changes: { viewed_at: nowIso() } });
  const { linked: _linked, origin: _origin, corrects: _corrects, customer_id: _customerId, order_id: _orderId, ...shown } = doc;
  return {
    document: { ...shown, deposit_invoices: doc.deposit_invoices.map(({ id: _id, ...d }) => d) },
    template,
    settings: { currency_format: settings.currency_format, address_format: settings.address_format },
    logo_url: profile.logo_url,
  };
}
export type SharedDocument = Awaited<ReturnType<typeof getSharedDocument>>;
