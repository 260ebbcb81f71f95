import type { Db } from '../db/connection';
import type { Env } from '../env';
import type { Mailer } from '../mail/mailer';
import { clock, nowIso } from '../clock';
import { fail } from '../errors';
import { logger } from '../logger';
import { updateDocument } from '../db/queries/documents';
import { findLatestQuoteResponse, findOwnerEmails, insertQuoteResponse, type QuoteResponseRow } from '../db/queries/quote-responses';
import { formatDateShort, formatMoney } from '../../shared/format';
import type { StoredDocument } from '../../shared/schemas/document-model';
import type { QuoteResponse } from '../../shared/schemas/document-mail';
import { findSharedRow } from './share';
import { todayIso } from './document-record';
import { organizationMailer } from './email-settings';
import { getStoredDocument } from './documents';
import { emitEvent } from './webhooks';
import { getAppSettings } from './settings';
import { parisDateOf } from '../../shared/paris-date';

interface ResponseDeps {
  db: Db;
  env: Env;
  mailer: Mailer;
}

/** Who answered, seen from the request: recorded with the answer. */
export interface Respondent {
  ip: string;
  userAgent: string;
}

const parisTime = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
const when = (iso: string) => `le ${formatDateShort(parisDateOf(iso))} à ${parisTime.format(new Date(iso))}`;

/** Why this estimate cannot be answered now, or null. Read again inside the transaction that records the answer. */
async function refusalReason(db: Db, doc: StoredDocument, decision: 'accepted' | 'refused'): Promise<string | null> {
  if (doc.type !== 'estimate') return 'Seul un devis peut être accepté ou refusé en ligne';
  if (doc.status === 'pending') {
    if (decision === 'accepted' && doc.maturity && doc.maturity < todayIso(clock.now()))
      return `Ce devis n’est plus valable depuis le ${formatDateShort(doc.maturity)} : il ne peut plus être accepté. Demandez-en un nouveau à ${doc.seller?.name ?? 'son émetteur'}.`;
    return null;
  }
  const last = await findLatestQuoteResponse(db, { organizationId: doc.organization_id, documentId: doc.id });
  if (doc.status === 'accepted')
    return last?.decision === 'accepted'
      ? `Ce devis a déjà été accepté ${when(last.created_at)} par ${last.name}`
      : 'Ce devis a déjà été accepté';
  if (doc.status === 'refused')
    return last?.decision === 'refused'
      ? `Ce devis a été refusé ${when(last.created_at)} : il ne peut plus être accepté ni refusé en ligne`
      : 'Ce devis a été refusé';
  return 'Ce devis a déjà été traité (converti en facture ou commande) : il ne peut plus être accepté ni refusé en ligne';
}

/**
 * The customer's answer to an estimate on its public page: checked, then the status moved and the answer recorded
 * in one transaction, on the estimate as it was read (a concurrent answer makes this one a 409, never a second row).
 * The organisation is told by e-mail afterwards, without holding the customer's answer.
 */
export async function answerQuote(
  deps: ResponseDeps,
  uuid: string,
  answer: { decision: 'accepted' | 'refused'; name: string; reason: string },
  who: Respondent,
): Promise<string> {
  const doc = await findSharedRow(deps.db, uuid);
  const recorded = await deps.db.transaction().execute(async (trx) => {
    const current = await findSharedRow(trx, uuid);
    const reason = await refusalReason(trx, current, answer.decision);
    if (reason) fail('CONFLICT', reason);
    const now = nowIso();
    const changed = await updateDocument(trx, {
      organizationId: current.organization_id,
      id: current.id,
      changes: { status: answer.decision, updated_at: now },
      expected: { status: current.status, updated_at: current.updated_at },
    });
    if (changed !== 1) fail('CONFLICT', 'Ce devis vient de recevoir une autre réponse : rechargez la page');
    const row = {
      organization_id: current.organization_id,
      document_id: current.id,
      decision: answer.decision,
      name: answer.name,
      reason: answer.reason,
      ip: who.ip,
      user_agent: who.userAgent,
      created_at: now,
    } as const;
    await insertQuoteResponse(trx, row);
    await emitEvent(trx, current.organization_id, answer.decision === 'accepted' ? 'estimate.accepted' : 'estimate.refused', {
      document: { id: current.id, number: current.number, uuid: current.uuid },
      name: row.name,
      reason: row.reason,
      answered_at: now,
    });
    return row;
  });
  void notifyOrganization(deps, doc, recorded);
  return answer.decision === 'accepted'
    ? `Devis ${doc.number} accepté : merci ${answer.name}, votre accord est enregistré et transmis à ${doc.seller?.name ?? 'votre fournisseur'}.`
    : `Devis ${doc.number} refusé : votre réponse est enregistrée et transmise à ${doc.seller?.name ?? 'votre fournisseur'}.`;
}

/**
 * Mails the organisation's owners the answer (the estimate, its customer, amount and the refusal's reason, a link to
 * it) through its SMTP server, the server's, or the outbox; replying writes to the customer. A failure is logged:
 * the customer's answer is recorded whatever happens to the notice.
 */
async function notifyOrganization(
  deps: ResponseDeps,
  doc: StoredDocument,
  response: Pick<QuoteResponseRow, 'decision' | 'name' | 'reason' | 'ip' | 'created_at'>,
): Promise<void> {
  const organizationId = doc.organization_id;
  try {
    const [{ mailer, from }, to, { currency_format }] = await Promise.all([
      organizationMailer(deps, organizationId),
      findOwnerEmails(deps.db, { organizationId }),
      getAppSettings(deps.db, organizationId),
    ]);
    if (to.length === 0) return;
    const link = `${deps.env.appUrl}/estimates/${doc.id}/view`;
    const accepted = response.decision === 'accepted';
    const customer = doc.customer?.name || doc.customer_name;
    const amount = formatMoney(doc.totals.total, currency_format, doc.currency);
    const customerEmail = doc.customer?.email || undefined;
    await mailer.send({
      to,
      from,
      replyTo: customerEmail,
      subject: accepted ? `Devis ${doc.number} accepté par ${customer}` : `Devis ${doc.number} refusé par ${customer}`,
      text: [
        'Bonjour,',
        '',
        accepted
          ? `${response.name} (${customer}) a accepté en ligne le devis ${doc.number}, « Bon pour accord », ${when(response.created_at)} (adresse IP ${response.ip}).`
          : `${response.name ? `${response.name} (${customer})` : customer} a refusé en ligne le devis ${doc.number} ${when(response.created_at)}.`,
        '',
        `Devis : ${doc.number}`,
        `Client : ${customer}`,
        `Montant : ${amount}`,
        ...(accepted ? [] : [`Motif : ${response.reason || 'aucun motif donné'}`]),
        '',
        accepted ? `Vous pouvez maintenant le convertir en facture ou en facture d’acompte : ${link}` : `Le devis : ${link}`,
      ].join('\n'),
    });
    if (mailer.outboxDir)
      logger.info({
        event: 'quote_response_in_outbox',
        message: `estimate ${doc.number} of organization ${organizationId} ${response.decision} online: no SMTP server configured, notice left in ${mailer.outboxDir}`,
      });
  } catch (error) {
    logger.error(`estimate ${doc.number} of organization ${organizationId}: the ${response.decision} notice was not mailed`, error);
  }
}

/** The latest answer given online to one of the organisation's documents, for its Aperçu (null: none). */
export async function getQuoteResponse(db: Db, organizationId: number, id: number): Promise<QuoteResponse | null> {
  await getStoredDocument(db, organizationId, id); // 404 for another organisation's document
  const row = await findLatestQuoteResponse(db, { organizationId, documentId: id });
  if (!row) return null;
  const { decision, name, reason, ip, user_agent, created_at } = row;
  return { decision, name, reason, ip, user_agent, created_at };
}

/**
 * What the public page of an estimate needs to offer « Accepter » and « Refuser »: its state, its validity date and
 * whether it passed, and the answer already given (the signer's name and when; the IP and browser stay with the
 * organisation). Null for any other document type.
 */
export async function getQuoteState(db: Db, uuid: string): Promise<QuoteState | null> {
  const doc = await findSharedRow(db, uuid);
  if (doc.type !== 'estimate') return null;
  const last = await findLatestQuoteResponse(db, { organizationId: doc.organization_id, documentId: doc.id });
  const state = doc.status === 'pending' || doc.status === 'accepted' || doc.status === 'refused' ? doc.status : 'closed';
  const answered = last && last.decision === state ? { name: last.name, at: last.created_at } : null;
  return {
    state,
    valid_until: doc.maturity,
    expired: Boolean(doc.maturity && doc.maturity < todayIso(clock.now())),
    answered,
  };
}

export interface QuoteState {
  state: 'pending' | 'accepted' | 'refused' | 'closed';
  valid_until: string | null;
  expired: boolean;
  answered: { name: string; at: string } | null;
}
