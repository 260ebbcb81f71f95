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
  // An allowlist, not a blocklist: a field added to documents later stays private until it is added here.
  const customer = doc.customer as ({ id?: number; email?: string } & Record<string, unknown>) | null;
  const document = {
    type: doc.type,
    kind: doc.kind,
    number: doc.number,
    date: doc.date,
    maturity: doc.maturity,
    sale_date: doc.sale_date,
    currency: doc.currency,
    price_mode: doc.price_mode,
    condition: doc.condition,
    header: doc.header,
    footer: doc.footer,
    terms: doc.terms,
    note: doc.note,
    shipping_details: doc.shipping_details,
    additional_info: doc.additional_info,
    deposit_request: doc.deposit_request,
    organization: doc.organization,
    customer: customer ? (({ id: _id, email: _email, ...rest }) => rest)(customer) : null,
    items: doc.items.map(({ id: _id, ...item }) => item),
    subtotal: doc.subtotal,
    discount: doc.discount,
    discount_type: doc.discount_type,
    discount_value: doc.discount_value,
    taxes: doc.taxes,
    tax: doc.tax,
    shipping: doc.shipping,
    total: doc.total,
    deposits: doc.deposits,
    deposit_invoices: doc.deposit_invoices.map((d) => ({ number: d.number, date: d.date, total: d.total })),
    credited: doc.credited,
    paid: doc.paid,
    amount_due: doc.amount_due,
    legal_mentions: doc.legal_mentions,
  };
  return {
    document,
    template,
    settings: { currency_format: settings.currency_format, address_format: settings.address_format },
    logo_url: profile.logo_url,
  };
}
export type SharedDocument = Awaited<ReturnType<typeof getSharedDocument>>;
