import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { fail } from '../errors';
import { countryCode } from '../../shared/countries';
import { normalizeSiren } from '../../shared/identifiers';
import { hasEinvoice } from '../../shared/document-status';
import type { StoredDocument } from '../../shared/schemas/document-model';
import type { Transmission } from '../../shared/schemas/einvoice-lifecycle';
import { findFlowOfDocument, insertFlow, makeFlowDueNow } from '../db/queries/einvoice-flows';
import { getEinvoicingSettings } from './einvoicing-settings';
import { lifecycleDocument } from './einvoice-lifecycle';
import type { FlowOutbox } from './einvoice-outbox';
import { transmissionMessage, transmissionOf } from './einvoice-transmission';

const siren = (value: string | undefined) => normalizeSiren(value ?? '').slice(0, 9);

/**
 * Why a document does not go to the platform as an e-invoice, or null: the reform's e-invoicing covers sales between
 * businesses established in France, identified by their SIREN (sales to individuals and abroad are e-reported).
 */
export function flowRecipientProblem(doc: Pick<StoredDocument, 'seller' | 'customer'>): string | null {
  if (!/^\d{9}$/.test(siren(doc.seller?.siret)))
    return 'Votre SIREN manque sur la facture émise : la plateforme ne peut pas l’acheminer (Paramètres → Entreprise)';
  const customer = doc.customer;
  if (!customer || customer.type === 'individual' || !/^\d{9}$/.test(siren(customer.business_id)))
    return 'Ce client n’a pas de SIREN : une vente à un particulier relève du e-reporting, pas du dépôt sur la plateforme';
  if (countryCode(customer.address?.country ?? '') !== 'FR')
    return 'Ce client n’est pas établi en France : une vente à l’étranger relève du e-reporting, pas du dépôt sur la plateforme';
  return null;
}

/**
 * In the issuing transaction: queues the submission of an invoice or credit note to a French business when the
 * organisation reaches its platform through the API. Written with the issue, so an issued invoice is never left
 * unsent by a crash in between; the outbox sends it after the commit. True when queued.
 */
export async function queueFlowOnIssue(
  trx: Db,
  organizationId: number,
  doc: Pick<StoredDocument, 'id' | 'uuid' | 'type' | 'seller' | 'customer'>,
): Promise<boolean> {
  if (!hasEinvoice(doc.type)) return false;
  if ((await getEinvoicingSettings(trx, organizationId)).mode !== 'afnor') return false;
  if (flowRecipientProblem(doc) !== null) return false;
  return insertFlow(trx, { organizationId, documentId: doc.id, trackingId: doc.uuid, now: nowIso() });
}

/**
 * « Transmettre » / « Renvoyer » (POST /api/documents/{id}/transmit): queues the document if it is not yet, makes a
 * refused or abandoned submission due again, and makes an attempt now. Never a second flow: a document already
 * submitted answers its flow (a second call only reads its acknowledgement), and a resubmission whose previous
 * outcome is unknown asks the platform by trackingId first (services/einvoice-outbox.ts).
 */
export async function transmitDocument(
  db: Db,
  outbox: FlowOutbox,
  organizationId: number,
  documentId: number,
): Promise<{ messages: string; data: Transmission }> {
  const doc = await lifecycleDocument(db, organizationId, documentId);
  const settings = await getEinvoicingSettings(db, organizationId);
  let row = await findFlowOfDocument(db, { organizationId, documentId });
  if (!row) {
    if (settings.mode !== 'afnor')
      fail(
        'CONFLICT',
        'Aucune plateforme agréée n’est configurée : choisissez « Plateforme agréée (API AFNOR XP Z12-013) » dans Paramètres → Facturation électronique',
      );
    const problem = flowRecipientProblem(doc);
    if (problem) fail('CONFLICT', problem);
    await insertFlow(db, { organizationId, documentId, trackingId: doc.uuid, now: outbox.now().toISOString() });
    row = await findFlowOfDocument(db, { organizationId, documentId });
    if (!row) fail('CONFLICT', 'La transmission n’a pas pu être enregistrée : réessayez');
  } else if (row.state === 'acknowledged') {
    return { messages: `Déjà déposée sur la plateforme agréée (flux ${row.flow_id})`, data: transmissionOf(row) };
  } else {
    const restart = row.state === 'error' || row.state === 'to_resend';
    await makeFlowDueNow(db, { id: row.id, now: outbox.now().toISOString(), restart });
  }
  await outbox.attemptNow(row.id);
  const after = await findFlowOfDocument(db, { organizationId, documentId });
  const data = transmissionOf(after ?? row);
  return { messages: transmissionMessage(data), data };
}
