import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { AppError, fail } from '../errors';
import { logger } from '../logger';
import { normalizeSiren } from '../../shared/identifiers';
import { pdfFileName } from '../../shared/document-types';
import type { StoredDocument } from '../../shared/schemas/document-model';
import type { LifecycleAnswer } from '../../shared/schemas/einvoice-lifecycle';
import { lifecycleState } from '../../shared/einvoice-lifecycle';
import { findSubmission, hasPlatformUpdate, insertSubmission, listSubmissions, listSubmittingOrganizations } from '../db/queries/einvoice';
import { findDocument } from '../db/queries/documents';
import type { InvoiceEnvelope, PlatformConnector, XmlProvider } from '../einvoice/platform';
import { appendAudit } from './audit';
import { appendStatus, getLifecycle, lifecycleDocument } from './einvoice-lifecycle';
import { documentOf } from './pdf-archive';
import { getEinvoicingSettings } from './einvoicing-settings';
import type { FlowOutbox } from './einvoice-outbox';
import { transmitDocument } from './einvoice-transmit';

/** What sending needs, built once with the app (app.ts): the connector, the XML of a document, its archived PDF. */
export interface EinvoiceDeps {
  connector: PlatformConnector;
  /** Absent until the EN 16931 generator is wired: sending is then refused (a platform takes no invoice without XML). */
  xml?: XmlProvider;
  /** The archived PDF of an issued invoice or credit note (the Factur-X), as every download serves it. */
  pdf: (doc: StoredDocument) => Promise<Buffer>;
  /** The outbox of the platform's API (mode « Plateforme agréée »): queued at issue, sent in the background. */
  outbox: FlowOutbox;
}

export const XML_UNAVAILABLE = 'Ce serveur ne produit pas le XML Factur-X (EN 16931) : le dépôt sur la plateforme est impossible';

/** UNCL 1001 type codes used in France. */
const typeCode = (doc: StoredDocument): number => (doc.type === 'credit' ? 381 : doc.kind === 'deposit' ? 386 : 380);

function envelopeOf(doc: StoredDocument & { type: 'invoice' | 'credit' }): InvoiceEnvelope {
  const seller = doc.seller;
  const customer = doc.customer;
  const senderSiren = normalizeSiren(seller?.siret ?? '').slice(0, 9);
  if (senderSiren.length !== 9) fail('CONFLICT', 'Votre SIREN manque sur la facture émise : la plateforme ne peut pas l’acheminer');
  const recipientSiren = normalizeSiren(customer?.business_id ?? '').slice(0, 9);
  // Sales to individuals and abroad are reported (e-reporting), not transmitted through the platforms.
  if (!customer || customer.type === 'individual' || recipientSiren.length !== 9)
    fail(
      'CONFLICT',
      'Ce client n’a pas de SIREN : une vente à un particulier ou à l’étranger relève du e-reporting, pas du dépôt sur la plateforme',
    );
  return {
    version: 1,
    document: { uuid: doc.uuid, type: doc.type, type_code: typeCode(doc), number: doc.number ?? '', date: doc.date },
    sender: { siren: senderSiren, name: seller?.name ?? '', vat_number: seller?.vat_number ?? '' },
    recipient: { siren: recipientSiren, name: customer.legal_name || customer.name, vat_number: customer.vat_number },
    totals: { net: doc.totals.subtotal, tax: doc.totals.tax, total: doc.totals.total, currency: doc.currency },
    format: 'factur-x',
    xml_attached: true,
    files: [],
    created_at: nowIso(),
  };
}

/**
 * Per-document queue: a double click sends once. Per process is enough with several processes (PostgreSQL): two
 * sends of one document from two processes give the connector the same reference (the document's uuid), which the
 * folder platform writes once, and the submission row's unique key records one of them (`insertSubmission`).
 */
const locks = new Map<number, Promise<unknown>>();
async function serialized<T>(documentId: number, work: () => Promise<T>): Promise<T> {
  const current = (locks.get(documentId) ?? Promise.resolve()).catch(() => undefined).then(work);
  locks.set(documentId, current);
  try {
    return await current;
  } finally {
    if (locks.get(documentId) === current) locks.delete(documentId);
  }
}

/** « Aucune » sends nothing, said plainly. */
async function assertSendingOn(db: Db, organizationId: number): Promise<void> {
  const { mode } = await getEinvoicingSettings(db, organizationId);
  if (mode === 'none')
    fail('CONFLICT', 'La facturation électronique est désactivée pour votre entreprise (Paramètres → Facturation électronique)');
}

/**
 * "Déposer sur la plateforme": transmits an issued invoice or credit note once — the archived Factur-X PDF, its XML
 * and the envelope — and records the transmission and its audit entry together. A second call answers the first
 * transmission and sends nothing. The platform's statuses (Déposée, Rejetée…) come back by polling. Through the
 * platform's API (mode « Plateforme agréée »), it is the outbox's « Transmettre » (services/einvoice-transmit.ts).
 */
export async function sendToPlatform(
  db: Db,
  deps: EinvoiceDeps,
  organizationId: number,
  documentId: number,
  userId?: number,
): Promise<{ messages: string; data: LifecycleAnswer }> {
  const doc = await lifecycleDocument(db, organizationId, documentId);
  return serialized(documentId, async () => {
    const already = await findSubmission(db, { organizationId, documentId });
    if (already)
      return {
        messages: `Déjà déposé sur la plateforme (réf. ${already.reference})`,
        data: await getLifecycle(db, organizationId, documentId),
      };
    await assertSendingOn(db, organizationId);
    if ((await getEinvoicingSettings(db, organizationId)).mode === 'afnor') {
      const { messages } = await transmitDocument(db, deps.outbox, organizationId, documentId);
      return { messages, data: await getLifecycle(db, organizationId, documentId) };
    }
    const state = lifecycleState((await getLifecycle(db, organizationId, documentId)).data);
    if (state.closed === 'refused') fail('CONFLICT', 'Cette facture a été refusée par le client : elle ne se dépose plus');
    if (state.deposited) fail('CONFLICT', 'Cette facture est déjà déposée sur une plateforme');
    const envelope = envelopeOf(doc);
    if (!deps.xml) fail('CONFLICT', XML_UNAVAILABLE);
    const [xml, pdf] = await Promise.all([deps.xml(organizationId, documentId), deps.pdf(doc)]);
    const account = { organizationId };
    const { reference, files } = await deps.connector.send(account, {
      pdf: { name: pdfFileName(doc.type, doc.kind, doc.number ?? ''), bytes: pdf },
      xml,
      envelope,
    });
    await db.transaction().execute(async (trx) => {
      const values = { platform: deps.connector.name, reference, format: 'factur-x', xml_attached: 1, sent_at: nowIso() };
      if (!(await insertSubmission(trx, { organizationId, documentId, values }))) return;
      await appendAudit(
        trx,
        organizationId,
        'einvoice_send',
        {
          document: documentOf(doc),
          submission: { platform: deps.connector.name, reference, files: files.map((f) => ({ name: f.name, sha256: f.sha256 })) },
        },
        userId,
      );
    });
    return { messages: `Facture déposée sur la plateforme (réf. ${reference})`, data: await getLifecycle(db, organizationId, documentId) };
  });
}

export interface PollReport {
  /** Statuses newly recorded. */
  recorded: number;
  /** Updates that could not follow the history (logged; the platform and the history disagree). */
  refused: number;
}

/**
 * Reads the platform's statuses of every transmitted document of one organisation and records those not yet recorded,
 * each checked against the transition rules. What the scheduler calls, and `npm run einvoice:poll`.
 */
export async function pollPlatform(db: Db, connector: PlatformConnector, organizationId: number): Promise<PollReport> {
  const report: PollReport = { recorded: 0, refused: 0 };
  for (const submission of await listSubmissions(db, { organizationId })) {
    const doc = await findDocument(db, { organizationId, id: submission.document_id });
    if (!doc) continue;
    for (const update of await connector.status({ organizationId }, submission.reference)) {
      if (await hasPlatformUpdate(db, { organizationId, updateId: update.id })) continue;
      try {
        await db.transaction().execute((trx) =>
          appendStatus(trx, doc, {
            status: update.status,
            date: update.date,
            reason: update.reason,
            source: 'platform',
            platformUpdateId: update.id,
          }),
        );
        report.recorded++;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        report.refused++;
        logger.error(`Platform status not recorded: document ${doc.id}, update ${update.id}: ${error.message}`);
      }
    }
  }
  return report;
}

/** Every organisation that transmitted something: the scheduler's and the operator command's entry point. */
export async function pollAllPlatforms(db: Db, connector: PlatformConnector): Promise<PollReport> {
  const total: PollReport = { recorded: 0, refused: 0 };
  for (const organizationId of await listSubmittingOrganizations(db)) {
    const report = await pollPlatform(db, connector, organizationId);
    total.recorded += report.recorded;
    total.refused += report.refused;
  }
  return total;
}
