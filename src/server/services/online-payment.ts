import type { Db } from '../db/connection';
import type { Env } from '../env';
import { AppError, fail, type FieldErrors } from '../errors';
import { logger } from '../logger';
import { secretBoxFor, SecretKeyMismatchError } from '../crypto/secret-box';
import { stripeClient, stripeModule } from '../payments/stripe';
import {
  deleteOnlinePaymentSettings,
  findOnlinePaymentSettings,
  upsertOnlinePaymentSettings,
  type OnlinePaymentSettingsRow,
} from '../db/queries/online-payment';
import {
  CARD_PAYMENT_EVENTS,
  ONLINE_PAYMENT_FIELD_LABELS,
  stripeKeyMode,
  type OnlinePaymentSettings,
  type onlinePaymentSettingsInputSchema,
} from '../../shared/schemas/online-payment';
import type { z } from 'zod';

type Input = z.output<typeof onlinePaymentSettingsInputSchema>;
type Field = keyof typeof ONLINE_PAYMENT_FIELD_LABELS;

interface Deps {
  db: Db;
  env: Env;
}

/** Where Stripe sends an organisation's events: its own path, so the event is checked with that organisation's secret. */
export const CARD_WEBHOOK_PREFIX = '/api/stripe/webhook/';
export const cardWebhookUrl = (appUrl: string, organizationId: number) => `${appUrl}${CARD_WEBHOOK_PREFIX}${organizationId}`;

const EMPTY: OnlinePaymentSettingsRow = { publishable_key: '', secret_key: '', webhook_secret: '' };

const isComplete = (row: OnlinePaymentSettingsRow) => row.publishable_key !== '' && row.secret_key !== '' && row.webhook_secret !== '';

function publicSettings(env: Env, organizationId: number, row: OnlinePaymentSettingsRow): OnlinePaymentSettings {
  return {
    enabled: isComplete(row),
    publishable_key: row.publishable_key,
    secret_key_set: row.secret_key !== '',
    webhook_secret_set: row.webhook_secret !== '',
    mode: stripeKeyMode(row.publishable_key),
    webhook_url: cardWebhookUrl(env.appUrl, organizationId),
    events: [...CARD_PAYMENT_EVENTS],
  };
}

export async function getOnlinePaymentSettings(deps: Deps, organizationId: number): Promise<OnlinePaymentSettings> {
  return publicSettings(deps.env, organizationId, (await findOnlinePaymentSettings(deps.db, { organizationId })) ?? EMPTY);
}

/** Whether the organisation's customers are offered « Payer par carte »: every key stored. */
export async function cardPaymentEnabled(db: Db, organizationId: number): Promise<boolean> {
  const row = await findOnlinePaymentSettings(db, { organizationId });
  return row !== undefined && isComplete(row);
}

/**
 * Stripe's refusal or silence, said in French (the user typed the key, or the customer waits on the share page).
 * Anything else is not Stripe's answer and goes on as a server error.
 */
export function stripeProblem(error: unknown): string {
  const { errors } = stripeModule();
  if (error instanceof errors.StripeAuthenticationError) {
    return 'Stripe refuse la clé secrète : elle est inconnue, révoquée ou mal copiée (Stripe → Développeurs → Clés API)';
  }
  if (error instanceof errors.StripePermissionError) {
    return 'Stripe refuse cette opération à cette clé : une clé restreinte doit pouvoir lire le compte et écrire les sessions Checkout';
  }
  if (error instanceof errors.StripeInvalidRequestError) return `Stripe refuse la demande : ${error.message}`;
  if (error instanceof errors.StripeRateLimitError) return 'Stripe reçoit trop de demandes : réessayez dans un instant';
  if (error instanceof errors.StripeConnectionError) return 'Stripe ne répond pas : réessayez dans un instant';
  if (error instanceof errors.StripeError) return 'Stripe a rencontré une erreur : réessayez dans un instant';
  throw error;
}

/** The account a secret key opens (GET /v1/account): proves the key before it is kept, and answers « Tester ». */
async function accountOf(env: Env, secretKey: string) {
  const account = await stripeClient(secretKey, env.stripeApiBase).accounts.retrieveCurrent();
  const name = account.settings?.dashboard?.display_name ?? account.business_profile?.name ?? account.email ?? account.id;
  return { account_id: account.id, name, livemode: stripeKeyMode(secretKey) === 'live' };
}

/**
 * Saves the keys. A secret left out keeps the stored one; a new secret key is tried on Stripe first, so a key Stripe
 * refuses is said now rather than by a customer's failed checkout. The keys must all be test keys or all live ones.
 */
export async function saveOnlinePaymentSettings(deps: Deps, organizationId: number, input: Input): Promise<OnlinePaymentSettings> {
  const stored = (await findOnlinePaymentSettings(deps.db, { organizationId })) ?? EMPTY;
  const box = secretBoxFor(deps.env);
  const newSecret = input.secret_key ?? '';
  const newWebhookSecret = input.webhook_secret ?? '';
  const problems: [Field, string][] = [];
  if (newSecret === '' && stored.secret_key === '') problems.push(['secret_key', 'obligatoire (Stripe → Développeurs → Clés API)']);
  if (newWebhookSecret === '' && stored.webhook_secret === '') {
    problems.push(['webhook_secret', 'obligatoire (Stripe → Développeurs → Webhooks → votre point de terminaison)']);
  }
  const mode = stripeKeyMode(input.publishable_key);
  if (newSecret !== '' && stripeKeyMode(newSecret) !== mode) {
    problems.push([
      'secret_key',
      `c’est une clé ${stripeKeyMode(newSecret) === 'live' ? 'réelle (live)' : 'de test'} alors que la clé publiable est ${mode === 'live' ? 'réelle (live)' : 'de test'}`,
    ]);
  }
  if (problems.length === 0 && newSecret !== '') {
    try {
      await accountOf(deps.env, newSecret);
    } catch (error) {
      problems.push(['secret_key', stripeProblem(error)]);
    }
  }
  if (problems.length > 0) {
    const messages = problems.map(([field, text]) => `${ONLINE_PAYMENT_FIELD_LABELS[field]} : ${text}`);
    const fields: FieldErrors = Object.fromEntries(problems.map(([field, text]) => [field, text.charAt(0).toUpperCase() + text.slice(1)]));
    throw new AppError('BAD_REQUEST', messages.length === 1 ? (messages[0] as string) : messages, fields);
  }
  const row: OnlinePaymentSettingsRow = {
    publishable_key: input.publishable_key,
    secret_key: newSecret !== '' ? box.seal(newSecret) : stored.secret_key,
    webhook_secret: newWebhookSecret !== '' ? box.seal(newWebhookSecret) : stored.webhook_secret,
  };
  await upsertOnlinePaymentSettings(deps.db, { organizationId, row });
  return publicSettings(deps.env, organizationId, row);
}

/** Forgets every key: the button leaves the share pages at once; sessions already paid still arrive, and are ignored. */
export async function removeOnlinePaymentSettings(deps: Deps, organizationId: number): Promise<OnlinePaymentSettings> {
  await deleteOnlinePaymentSettings(deps.db, { organizationId });
  return publicSettings(deps.env, organizationId, EMPTY);
}

/** The organisation's keys opened, or null when it has none; a key that can no longer be opened is a 412 saying why. */
export async function openKeys(deps: Deps, organizationId: number): Promise<{ secretKey: string; webhookSecret: string } | null> {
  const row = await findOnlinePaymentSettings(deps.db, { organizationId });
  if (!row || !isComplete(row)) return null;
  const box = secretBoxFor(deps.env);
  try {
    return { secretKey: box.open(row.secret_key), webhookSecret: box.open(row.webhook_secret) };
  } catch (error) {
    if (error instanceof SecretKeyMismatchError) fail('PRECONDITION_FAILED', error.message);
    throw error;
  }
}

/** « Tester »: the stored secret key on Stripe's API; its account, or a 502 with Stripe's refusal in French. */
export async function checkOnlinePayment(deps: Deps, organizationId: number) {
  const keys = await openKeys(deps, organizationId);
  if (!keys) fail('CONFLICT', 'Enregistrez d’abord les clés Stripe : il n’y a rien à tester');
  try {
    const account = await accountOf(deps.env, keys.secretKey);
    return { messages: `Connexion à Stripe réussie : compte « ${account.name} »`, data: account };
  } catch (error) {
    const problem = stripeProblem(error);
    logger.info({ event: 'online_payment_check_failed', organization: organizationId, problem });
    throw new AppError('BAD_GATEWAY', problem);
  }
}
