import type Stripe from 'stripe';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { AppError, fail } from '../errors';
import { logger } from '../logger';
import { clock, isoIn } from '../clock';
import { stripeClient, verifyStripeEvent } from '../payments/stripe';
import type { ProviderEvent } from '../payments/provider';
import {
  claimCheckout,
  findCheckoutBySession,
  findOpenCheckout,
  insertCheckout,
  refuseCheckout,
  setCheckoutPayment,
} from '../db/queries/online-payment';
import { findSharedRow } from './share';
import { amountLeftToPay, recordPaymentIn } from './payments';
import { openKeys, stripeProblem } from './online-payment';
import { kickFlowOutboxes } from './einvoice-outbox';
import { PAYABLE_STATUSES } from '../../shared/document-status';
import { currencyPrecision } from '../../shared/currencies';
import { fromStoredUnits, minorToStoredUnits, toMinorUnits, unitsToDecimalText } from '../../shared/money';
import { CARD_PAYMENT_EVENTS } from '../../shared/schemas/online-payment';
import { parisDateOf, parisToday } from '../../shared/paris-date';

interface Deps {
  db: Db;
  env: Env;
}

/** Stripe's Checkout Sessions expire after 24 hours: one opened less than 23 hours ago is still worth reusing. */
const REUSE_WINDOW_MS = 23 * 3600_000;

const UNAVAILABLE =
  'Le paiement par carte est momentanément indisponible : réessayez dans un instant, ou réglez la facture par un autre moyen';

/**
 * « Payer par carte » on an invoice's public page: a Stripe Checkout Session, on the organisation's own account, for
 * what is left to pay, in the invoice's currency counted in its smallest unit. The same invoice and balance reuse the
 * session already open (a customer clicking twice, or coming back, is not offered to pay twice). Answers its URL.
 */
export async function createCardCheckout(deps: Deps, uuid: string, appUrl: string): Promise<{ url: string }> {
  const doc = await findSharedRow(deps.db, uuid);
  const organizationId = doc.organization_id;
  if (doc.type !== 'invoice') fail('CONFLICT', 'Seule une facture se règle par carte');
  if (!PAYABLE_STATUSES.includes(doc.status)) fail('CONFLICT', 'Cette facture est annulée : elle ne se règle plus');
  const keys = await openKeys(deps, organizationId);
  if (!keys) fail('CONFLICT', 'Le paiement par carte n’est pas proposé pour cette facture');
  const left = await amountLeftToPay(deps.db, organizationId, doc);
  if (left <= 0n) fail('CONFLICT', 'Cette facture est déjà réglée : il n’y a plus rien à payer');
  const minor = toMinorUnits(unitsToDecimalText(left, 4), currencyPrecision(doc.currency));
  // Payments are recorded in the currency's units, so a balance finer than them cannot happen; said rather than rounded.
  if (minor === null)
    fail('CONFLICT', `Le reste à payer ne se compte pas en unités de ${doc.currency} : réglez la facture par un autre moyen`);

  const open = await findOpenCheckout(deps.db, {
    organizationId,
    documentId: doc.id,
    amount: Number(left),
    since: isoIn(-REUSE_WINDOW_MS),
  });
  if (open) return { url: open.url };

  const shareUrl = `${appUrl}/share/${doc.uuid}`;
  const label = `Facture ${doc.number ?? ''}`.trim();
  const metadata = { organization_id: String(organizationId), document_uuid: doc.uuid, invoice_number: doc.number ?? '' };
  const email = doc.customer?.email ?? '';
  let session: Stripe.Checkout.Session;
  try {
    session = await stripeClient(keys.secretKey, deps.env.stripeApiBase).checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: { currency: doc.currency.toLowerCase(), unit_amount: Number(minor), product_data: { name: label } },
        },
      ],
      client_reference_id: doc.uuid,
      metadata,
      payment_intent_data: { metadata, description: `${label} — ${doc.seller?.name ?? ''}`.replace(/ — $/, '') },
      ...(/^[^\s@]+@[^\s@]+$/.test(email) ? { customer_email: email } : {}),
      success_url: `${shareUrl}?paiement=recu`,
      cancel_url: `${shareUrl}?paiement=annule`,
      locale: 'fr',
    });
  } catch (error) {
    // The customer is told to come back later; the reason (a revoked key, a currency Stripe refuses) is the owner's.
    logger.info({ event: 'card_checkout_failed', organization: organizationId, document: doc.id, problem: stripeProblem(error) });
    throw new AppError('BAD_GATEWAY', UNAVAILABLE);
  }
  if (!session.url) {
    logger.info({ event: 'card_checkout_failed', organization: organizationId, document: doc.id, problem: 'session without url' });
    throw new AppError('BAD_GATEWAY', UNAVAILABLE);
  }
  await insertCheckout(deps.db, {
    organizationId,
    documentId: doc.id,
    sessionId: session.id,
    url: session.url,
    amount: Number(left),
    currency: doc.currency,
  });
  return { url: session.url };
}

/** What a delivery did: a payment recorded, one already recorded, nothing to do, or money the invoice could not take. */
export type CardEventOutcome = 'recorded' | 'duplicate' | 'ignored' | 'refused';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'object' && v !== null ? str((v as Obj).id) : null;
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** Stripe's fee on the payment and the day the money was taken, from its balance transaction; unknown = none. */
async function feeOf(stripe: Stripe, paymentIntent: string | null, organizationId: number) {
  if (!paymentIntent) return null;
  try {
    const intent = await stripe.paymentIntents.retrieve(paymentIntent, { expand: ['latest_charge.balance_transaction'] });
    const transaction = obj(obj(intent.latest_charge).balance_transaction);
    const fee = int(transaction.fee);
    const currency = str(transaction.currency);
    const created = int(transaction.created);
    if (fee === null || !currency) return null;
    return {
      fee: minorToStoredUnits(fee, currencyPrecision(currency)),
      fee_currency: currency.toUpperCase(),
      date: created === null ? null : parisDateOf(new Date(created * 1000)),
    };
  } catch (error) {
    // The payment is recorded all the same: the fee can be read later from Stripe's dashboard.
    logger.info({
      event: 'card_payment_fee_unknown',
      organization: organizationId,
      payment_intent: paymentIntent,
      problem: stripeProblem(error),
    });
    return null;
  }
}

/**
 * An event of the organisation's Stripe account, on its own webhook path: the signature is checked with its signing
 * secret (a bad one changes nothing), then a paid Checkout Session we opened records its payment on the invoice, once
 * — the session is taken by one atomic update in the transaction of the payment, so the same event, a retry of it, or
 * the session's other event (paid later) records nothing more. A session we never opened is logged and ignored.
 */
export async function applyCardEvent(
  deps: Deps,
  organizationId: number,
  event: ProviderEvent,
  secretKey: string,
): Promise<CardEventOutcome> {
  if (!(CARD_PAYMENT_EVENTS as readonly string[]).includes(event.type)) {
    logger.info({ event: 'card_payment_event_ignored', organization: organizationId, stripe_event: event.type });
    return 'ignored';
  }
  const session = event.object;
  const sessionId = str(session.id);
  // A delayed payment method (a SEPA debit) completes the session unpaid: its async_payment_succeeded pays it.
  if (!sessionId || session.payment_status !== 'paid') return 'ignored';
  const checkout = await findCheckoutBySession(deps.db, { organizationId, sessionId });
  if (!checkout) {
    logger.info({ event: 'card_payment_unknown_session', organization: organizationId, stripe_event: event.id, session: sessionId });
    return 'ignored';
  }
  if (checkout.status !== 'open') return 'duplicate';

  const decimals = currencyPrecision(checkout.currency);
  const paidMinor = int(session.amount_total);
  const sameCurrency = String(session.currency ?? '').toUpperCase() === checkout.currency.toUpperCase();
  // What Stripe took, when it says so in the invoice's currency; else what the session asked.
  const amount = paidMinor !== null && sameCurrency ? minorToStoredUnits(paidMinor, decimals) : checkout.amount;
  const paymentIntent = str(session.payment_intent);
  const fee = await feeOf(stripeClient(secretKey, deps.env.stripeApiBase), paymentIntent, organizationId);
  const today = parisToday(clock.now());
  const date = fee?.date && fee.date <= today ? fee.date : today;
  try {
    const outcome = await deps.db.transaction().execute(async (trx): Promise<CardEventOutcome> => {
      if (!(await claimCheckout(trx, { id: checkout.id, eventId: event.id, paymentIntent }))) return 'duplicate';
      const paymentId = await recordPaymentIn(
        trx,
        organizationId,
        checkout.document_id,
        {
          date,
          amount: fromStoredUnits(amount),
          method: 'card',
          reference: paymentIntent ?? sessionId,
          note: 'Payé par carte en ligne (Stripe)',
        },
        undefined,
        fee ? { fee: fee.fee, fee_currency: fee.fee_currency } : {},
      );
      await setCheckoutPayment(trx, { id: checkout.id, paymentId });
      return 'recorded';
    });
    // A full payment may have queued « Encaissée » for the platform: sent now rather than at the outbox's next look.
    if (outcome === 'recorded') kickFlowOutboxes();
    return outcome;
  } catch (error) {
    if (!(error instanceof AppError) || (error.code !== 'CONFLICT' && error.code !== 'BAD_REQUEST')) throw error;
    // Paid twice (two sessions of one invoice) or cancelled meanwhile: the invoice never takes more than its balance.
    // Stripe is told it was received (it would retry for days otherwise); the owner refunds from Stripe's dashboard.
    const problem = [error.messages].flat().join(' ');
    await refuseCheckout(deps.db, { id: checkout.id, eventId: event.id, paymentIntent, problem });
    logger.info({ event: 'card_payment_refused', organization: organizationId, session: sessionId, problem });
    return 'refused';
  }
}

/** The door's part: the organisation's keys, the signature, then the event. Null when it has no keys (404). */
export async function receiveCardEvent(
  deps: Deps,
  organizationId: number,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<CardEventOutcome | null> {
  const keys = await openKeys(deps, organizationId);
  if (!keys) return null;
  const event = verifyStripeEvent(rawBody, signature, keys.webhookSecret);
  return applyCardEvent(deps, organizationId, event, keys.secretKey);
}
