import type { Db } from '../db/connection';
import { AppError } from '../errors';
import { logger } from '../logger';
import { RECEIPT_MAX_BYTES } from '../../shared/schemas/expense';
import { LIFECYCLE_STATUSES, statusOfCode } from '../../shared/einvoice-lifecycle';
import { normalizeSiren } from '../../shared/identifiers';
import type { ReceivedState } from '../../shared/schemas/einvoice-inbox';
import { findDocument, findNumberHolder } from '../db/queries/documents';
import { findImportedExpenseId } from '../db/queries/expenses';
import { listLifecycleRows } from '../db/queries/einvoice';
import type { AfnorClient } from '../einvoice/afnor/client';
import { AfnorError } from '../einvoice/afnor/errors';
import { downloadFlow, type IncomingFlow } from '../einvoice/afnor/incoming';
import { CdarError, type CdarStatus, readCdar } from '../einvoice/cdar-read';
import { EINVOICE_XML_MAX_BYTES } from '../einvoice/xml-size';
import { appendStatus } from './einvoice-lifecycle';
import { alreadyImportedMessage, findSameSupplierInvoice, readSupplierUpload, type SupplierUpload } from './expense-import';
import { lockRow } from '../db/dialect';
import { insertExpenseRecord } from './expenses';
import { removeReceiptFile, writeReceiptFile } from './expense-receipts';

/** What became of one incoming flow, as it is recorded. */
export interface FlowOutcome {
  state: ReceivedState;
  reason: string;
  expenseId?: number | null;
  documentId?: number | null;
  statusCode?: number | null;
}

/**
 * Records a handled flow in the transaction of its effect: its row and the cursor's move. Throws when the flow was
 * recorded by another process meanwhile or the search was taken over, so that the effect rolls back with it.
 */
export type RecordFlow = (trx: Db, outcome: FlowOutcome) => Promise<void>;

export interface InboxFlowContext {
  db: Db;
  dataDir: string;
  organizationId: number;
  client: AfnorClient;
  timeoutMs?: number;
}

/**
 * The file of a flow, or the outcome that ends it: a file the platform refuses to give (a 4xx for this one flow) or
 * too big for Facturier is recorded « Illisible », so that one bad flow does not hold the others back. Anything that
 * may pass (network, 429, 5xx, an unreadable answer, our credentials) is thrown: the search stops there.
 */
async function fileOf(context: InboxFlowContext, flow: IncomingFlow, maxBytes: number): Promise<Buffer | FlowOutcome> {
  try {
    return await downloadFlow(context.client, flow.flowId, maxBytes, { timeoutMs: context.timeoutMs ?? 60_000 });
  } catch (error) {
    if (!(error instanceof AfnorError)) throw error;
    if (error.failure === 'too-large')
      return { state: 'unreadable', reason: `Le fichier dépasse ${Math.round(maxBytes / 1024 / 1024)} Mo : il n’a pas été lu` };
    // The search just listed this flow at the same address: a refusal (404 included) is about this flow alone.
    if (error.failure === 'http' && error.status === 404)
      return { state: 'unreadable', reason: 'La plateforme ne trouve plus le fichier de ce flux (HTTP 404)' };
    if (error.failure === 'http')
      return { state: 'unreadable', reason: `La plateforme ne fournit pas le fichier de ce flux : ${error.message}` };
    throw error;
  }
}

/** A flow's file name as received, or one made of its id. */
const nameOf = (flow: IncomingFlow, extension: string) =>
  (flow.name || `flux-${flow.flowId}.${extension}`).replace(/[^\w.\- ]+/g, '_').slice(0, 200);

/**
 * A supplier's invoice: read through the same import as a file the user uploads (one reading of supplier files), then
 * the expense, its receipt and the flow's record in one transaction. A file that is no valid e-invoice is kept
 * « Illisible » with its reason, and never becomes an expense; the same file already imported is « Déjà importée ».
 */
export async function receiveSupplierInvoice(context: InboxFlowContext, flow: IncomingFlow, record: RecordFlow): Promise<FlowOutcome> {
  const { db, organizationId, dataDir } = context;
  const file = await fileOf(context, flow, RECEIPT_MAX_BYTES + 1);
  if (!Buffer.isBuffer(file)) return commit(db, record, file);
  let read: SupplierUpload;
  try {
    read = await readSupplierUpload(nameOf(flow, 'xml'), file);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'BAD_REQUEST') throw error;
    return commit(db, record, { state: 'unreadable', reason: messageOf(error) });
  }
  const duplicate = async (trx: Db = db): Promise<FlowOutcome | null> => {
    // The same file, or the same supplier's invoice number from another file (its PDF imported by hand, say).
    const known =
      (await findImportedExpenseId(trx, { organizationId, sha256: read.sha256 })) ??
      (await findSameSupplierInvoice(trx, organizationId, read.expense));
    if (known === undefined) return null;
    return { state: 'duplicate', reason: await alreadyImportedMessage(db, organizationId, known), expenseId: known };
  };
  const known = await duplicate();
  if (known) return commit(db, record, known);

  const stored = writeReceiptFile(dataDir, organizationId, read.type, file);
  const receipt = { path: stored, name: nameOf(flow, read.type === 'application/pdf' ? 'pdf' : 'xml'), type: read.type, size: file.length };
  try {
    const result = await db.transaction().execute(async (trx) => {
      // PostgreSQL runs flows and imports side by side: one organisation's wait for each other here.
      await lockRow(trx, 'organizations', organizationId);
      const known = await duplicate(trx);
      if (known) {
        await record(trx, known);
        return { outcome: known, kept: false };
      }
      const expenseId = await insertExpenseRecord(
        trx,
        organizationId,
        read.expense,
        { source: 'platform', sourceSha256: read.sha256 },
        receipt,
      );
      const outcome: FlowOutcome = { state: 'imported', reason: read.warnings.join(' ; '), expenseId };
      await record(trx, outcome);
      return { outcome, kept: true };
    });
    if (!result.kept) removeReceiptFile(dataDir, stored);
    return result.outcome;
  } catch (error) {
    removeReceiptFile(dataDir, stored);
    // The same file imported by hand meanwhile (the unique index on its SHA-256): the flow is that one's duplicate.
    const raced = await duplicate();
    if (raced) return commit(db, record, raced);
    throw error;
  }
}

/** Records an outcome that changes nothing else. */
async function commit(db: Db, record: RecordFlow, outcome: FlowOutcome): Promise<FlowOutcome> {
  await db.transaction().execute((trx) => record(trx, outcome));
  return outcome;
}

/**
 * A lifecycle message about the organisation's own invoices: each status it gives is added to the history of the
 * invoice it names, with the flow's record, in one transaction. A message naming no invoice of ours is recorded
 * « Facture inconnue » (and logged) and changes nothing; a status the history cannot take (a refusal after payment…)
 * is recorded « Statut non enregistré » with the reason.
 */
export async function receiveLifecycleMessage(context: InboxFlowContext, flow: IncomingFlow, record: RecordFlow): Promise<FlowOutcome> {
  const { db } = context;
  const file = await fileOf(context, flow, EINVOICE_XML_MAX_BYTES);
  if (!Buffer.isBuffer(file)) return commit(db, record, file);
  let statuses: CdarStatus[];
  try {
    statuses = await readCdar(file.toString('utf8'));
  } catch (error) {
    if (!(error instanceof CdarError)) throw error;
    return commit(db, record, { state: 'unreadable', reason: error.message });
  }
  return db.transaction().execute(async (trx) => {
    const outcomes: FlowOutcome[] = [];
    for (const [index, status] of statuses.entries()) outcomes.push(await applyStatus(trx, context, flow, status, index));
    const failed = outcomes.find((o) => o.state !== 'applied');
    const outcome: FlowOutcome = {
      state: failed?.state ?? 'applied',
      reason: outcomes
        .map((o) => o.reason)
        .filter(Boolean)
        .join(' ; '),
      documentId: outcomes.find((o) => o.documentId)?.documentId ?? null,
      statusCode: statuses[0]?.code ?? null,
    };
    await record(trx, outcome);
    return outcome;
  });
}

/** One status of a lifecycle message on the invoice it names, in the message's transaction. */
async function applyStatus(
  trx: Db,
  context: InboxFlowContext,
  flow: IncomingFlow,
  status: CdarStatus,
  index: number,
): Promise<FlowOutcome> {
  const { organizationId } = context;
  const key = statusOfCode(status.code);
  const label = key ? LIFECYCLE_STATUSES[key].label : String(status.code);
  const holder = await findNumberHolder(trx, { organizationId, number: status.invoiceNumber });
  const doc =
    holder && (holder.type === 'invoice' || holder.type === 'credit')
      ? await findDocument(trx, { organizationId, id: holder.id })
      : undefined;
  const ourSiren = normalizeSiren(doc?.seller?.siret ?? '').slice(0, 9);
  const issuer = normalizeSiren(status.issuerSiren).slice(0, 9);
  if (!doc || doc.status === 'draft' || (issuer && ourSiren && issuer !== ourSiren)) {
    logger.info({
      event: 'einvoice_status_unknown_invoice',
      organization: organizationId,
      flow: flow.flowId,
      invoice: status.invoiceNumber,
    });
    return {
      state: 'unknown_invoice',
      reason: `Aucune facture n° ${status.invoiceNumber} émise par votre entreprise : le statut « ${label} » n’a été enregistré nulle part`,
      statusCode: status.code,
    };
  }
  if (!key) return { state: 'not_applied', reason: `Code de statut ${status.code} inconnu`, documentId: doc.id };
  if (key === 'deposited') {
    // The acknowledgement of the submission already recorded it, most often: the message only confirms it.
    const rows = await listLifecycleRows(trx, { organizationId, documentId: doc.id });
    if (rows.some((r) => r.status === 'deposited')) return { state: 'applied', reason: '', documentId: doc.id, statusCode: status.code };
  }
  const reason = [status.reason, status.reasonCode ? `(motif ${status.reasonCode})` : ''].filter(Boolean).join(' ');
  try {
    await appendStatus(trx, doc, {
      status: key,
      // Never before the invoice's own date (a platform's clock may be off).
      date: status.date < doc.date ? doc.date : status.date,
      reason,
      source: 'platform',
      platformUpdateId: `flow:${flow.flowId}:${index}`,
    });
  } catch (error) {
    // Checked before anything is written: the transaction goes on with the other statuses and the record.
    if (!(error instanceof AppError)) throw error;
    return {
      state: 'not_applied',
      reason: `« ${label} » non enregistré : ${messageOf(error)}`,
      documentId: doc.id,
      statusCode: status.code,
    };
  }
  return { state: 'applied', reason: '', documentId: doc.id, statusCode: status.code };
}

const messageOf = (error: AppError) => (Array.isArray(error.messages) ? error.messages.join(' ; ') : error.messages);
