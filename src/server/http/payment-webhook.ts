import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../context';
import { AppError } from '../errors';
import { readBody } from './body';
import { sendError, sendJson } from './respond';
import { WebhookRefusal } from '../payments/provider';
import { applyPaymentEvent } from '../services/payment-events';
import { receiveCardEvent } from '../services/card-payments';
import { CARD_WEBHOOK_PREFIX } from '../services/online-payment';

export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';
/** Stripe's events are small; a megabyte is far beyond any of them. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * Stripe's signed events. The signature covers the raw bytes, so the body is read here, never parsed
 * and re-serialised by the REST door. Refused events (no provider, bad or old signature) change nothing.
 */
export async function handlePaymentWebhook(deps: AppDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return sendError(res, new AppError('METHOD_NOT_SUPPORTED', 'Méthode non prise en charge pour cette adresse'));
  }
  if (!deps.payments) return sendError(res, new AppError('NOT_FOUND', 'Aucun fournisseur de paiement n’est configuré sur ce serveur'));
  const raw = await readBody(req, WEBHOOK_BODY_LIMIT);
  const signature = req.headers['stripe-signature'];
  let event: ReturnType<typeof deps.payments.verifyWebhook>;
  try {
    event = deps.payments.verifyWebhook(raw, typeof signature === 'string' ? signature : undefined);
  } catch (error) {
    if (error instanceof WebhookRefusal) return sendError(res, new AppError('BAD_REQUEST', error.message));
    throw error;
  }
  const applied = await applyPaymentEvent(deps.db, event, { planLimits: deps.env.planLimits });
  sendJson(res, 200, { received: true, duplicate: !applied });
}

export { CARD_WEBHOOK_PREFIX };

/**
 * An organisation's own Stripe account (card payments on its invoices), at `/api/stripe/webhook/{organisation}`: the
 * path names whose signing secret checks the raw body. 404 for an organisation without keys; 400 for a bad, missing
 * or old signature (nothing recorded); 200 `{ received, outcome }` otherwise, an unknown session included (ignored).
 */
export async function handleCardWebhook(deps: AppDeps, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return sendError(res, new AppError('METHOD_NOT_SUPPORTED', 'Méthode non prise en charge pour cette adresse'));
  }
  const id = pathname.slice(CARD_WEBHOOK_PREFIX.length);
  const notFound = new AppError('NOT_FOUND', 'Aucun paiement en ligne n’est configuré pour cette entreprise');
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2 ** 31 - 1) return sendError(res, notFound);
  const raw = await readBody(req, WEBHOOK_BODY_LIMIT);
  const signature = req.headers['stripe-signature'];
  let outcome: Awaited<ReturnType<typeof receiveCardEvent>>;
  try {
    outcome = await receiveCardEvent(deps, Number(id), raw, typeof signature === 'string' ? signature : undefined);
  } catch (error) {
    if (error instanceof WebhookRefusal) return sendError(res, new AppError('BAD_REQUEST', error.message));
    throw error;
  }
  if (outcome === null) return sendError(res, notFound);
  sendJson(res, 200, { received: true, outcome });
}
