import type { Db } from '../db/connection';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { findDocumentByUuid, updateDocument } from '../db/queries/documents';
import { sumAllocatedToInvoice } from '../db/queries/credit-allocations';
import { fromStoredUnits } from '../../shared/money';
import { sharedDocumentSchema, type SharedDocumentView, type StoredDocument } from '../../shared/schemas/document-model';
import { depositsFor } from './documents';
import { getAppSettings, getDocumentTemplate } from './settings';
import { getOrganizationProfile } from './organization';
import { transferView } from './transfer-qr';
import { cardPaymentEnabled } from './online-payment';
import { PAYABLE_STATUSES } from '../../shared/document-status';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';

const NOT_SHARED = 'Document introuvable';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An issued document by its public uuid: the only handle a public link carries. Drafts are never shared. */
export async function findSharedRow(db: Db, uuid: string): Promise<StoredDocument> {
  const doc = UUID.test(uuid) ? await findDocumentByUuid(db, { uuid }) : undefined;
  if (!doc || doc.status === 'draft') return fail('NOT_FOUND', NOT_SHARED);
  return doc;
}

/**
 * What the public page shows: that one document as it was issued (its parties, lines, totals and mentions, stored at
 * issue and never recomputed), what is left to pay on it, and what its rendering needs (template, money and address
 * formats, logo, how to pay it by transfer) — nothing else of the organisation: no links to its other
 * documents, no internal ids of its records.
 * Each view is recorded for the owner (`viewed_at`), unless the server itself opens it to print a PDF.
 */
export async function getSharedDocument(db: Db, uuid: string, opts: { recordView: boolean }) {
  const doc = await findSharedRow(db, uuid);
  const organizationId = doc.organization_id;
  const [deposits, credited, template, settings, profile] = await Promise.all([
    depositsFor(db, organizationId, doc),
    DOCUMENT_TYPE_TABLE[doc.type].receivesPayments
      ? sumAllocatedToInvoice(db, { organizationId, invoiceId: doc.id }).then(fromStoredUnits)
      : 0,
    // Issued with its template kept (migration 0012): that one; issued before it: the current template.
    doc.template ?? getDocumentTemplate(db, organizationId),
    getAppSettings(db, organizationId),
    getOrganizationProfile(db, organizationId),
  ]);
  if (opts.recordView) await updateDocument(db, { organizationId, id: doc.id, changes: { viewed_at: nowIso() } });
  // The schema is the allowlist: a field added to documents later stays private until it is added there.
  const document: SharedDocumentView = sharedDocumentSchema.parse({
    ...doc,
    organization: doc.seller,
    ...doc.totals,
    deposit_invoices: deposits,
    credited,
  });
  return {
    document,
    // What is left to pay, not what was issued: the page never asks a customer to pay twice, and at issue (when the
    // invoice's PDF is printed and kept) both are the same.
    transfer: await transferView(doc, document.amount_due),
    template,
    settings: { currency_format: settings.currency_format, address_format: settings.address_format },
    logo_url: profile.logo_url,
    card_payment:
      DOCUMENT_TYPE_TABLE[doc.type].receivesPayments &&
      PAYABLE_STATUSES.includes(doc.status) &&
      document.amount_due > 0 &&
      (await cardPaymentEnabled(db, organizationId)),
  };
}
export type SharedDocument = Awaited<ReturnType<typeof getSharedDocument>>;
