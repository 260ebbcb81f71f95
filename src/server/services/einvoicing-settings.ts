import type { Db } from '../db/connection';
import type { Env } from '../env';
import { AppError, fail, type FieldErrors } from '../errors';
import { findEinvoicingSettings, upsertEinvoicingSettings, type EinvoicingSettingsRow } from '../db/queries/einvoicing-settings';
import { secretBoxFor, SecretKeyMismatchError } from '../crypto/secret-box';
import { OutboundRefusedError, resolveOutbound } from '../net/outbound-guard';
import type { AfnorConnection } from '../einvoice/afnor/connection';
import {
  EINVOICING_FIELD_LABELS,
  EINVOICING_MODES,
  EINVOICING_PROFILES,
  EINVOICING_SYNTAXES,
  type EinvoicingSettings,
  type einvoicingSettingsInputSchema,
} from '../../shared/schemas/einvoicing-settings';
import type { z } from 'zod';

type Input = z.output<typeof einvoicingSettingsInputSchema>;
type Field = keyof typeof EINVOICING_FIELD_LABELS;

interface Deps {
  db: Db;
  env: Env;
}

/** Organisations that never saved this setting keep the folder connector they had. */
const DEFAULT_ROW: EinvoicingSettingsRow = {
  mode: 'folder',
  flow_url: '',
  directory_url: '',
  token_url: '',
  client_id: '',
  client_secret: '',
  token: '',
  pa_matricule: '',
  syntax: 'factur-x',
  profile: 'CIUS',
};

async function storedRow(db: Db, organizationId: number): Promise<EinvoicingSettingsRow> {
  return (await findEinvoicingSettings(db, { organizationId })) ?? DEFAULT_ROW;
}

const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

/** The answer of GET and PUT: whether secrets are stored, never the secrets. */
function publicSettings(row: EinvoicingSettingsRow): EinvoicingSettings {
  return {
    mode: oneOf(EINVOICING_MODES, row.mode, 'folder'),
    flow_url: row.flow_url,
    directory_url: row.directory_url,
    token_url: row.token_url,
    client_id: row.client_id,
    client_secret_set: row.client_secret !== '',
    token_set: row.token !== '',
    pa_matricule: row.pa_matricule,
    syntax: oneOf(EINVOICING_SYNTAXES, row.syntax, 'factur-x'),
    profile: oneOf(EINVOICING_PROFILES, row.profile, 'CIUS'),
  };
}

export async function getEinvoicingSettings(db: Db, organizationId: number): Promise<EinvoicingSettings> {
  return publicSettings(await storedRow(db, organizationId));
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a platform URL cannot be used from this server, or null: https, or http to loopback when OUTBOUND_ALLOW_PRIVATE allows it. */
async function reachabilityError(value: string, allowPrivate: boolean): Promise<string | null> {
  const url = new URL(value);
  if (url.protocol === 'http:' && !(allowPrivate && LOOPBACK.has(url.hostname))) {
    return 'https:// est obligatoire (les identifiants et les factures ne circulent pas en clair)';
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  try {
    await resolveOutbound(url.hostname, port, { allowPrivate, ports: [port] });
  } catch (error) {
    if (error instanceof OutboundRefusedError) {
      return 'cette adresse n’est pas joignable depuis Facturier (nom inconnu, ou adresse interne : localhost, réseau privé, lien local)';
    }
    throw error;
  }
  return null;
}

/**
 * Saves the settings. A secret left out keeps the stored one; the OAuth2 fields and the static token exclude each
 * other (a token URL means OAuth2), and the unused kind is forgotten so no stale secret lingers. Every missing or
 * wrong field is reported at once, each by its name.
 */
export async function saveEinvoicingSettings(deps: Deps, organizationId: number, input: Input): Promise<EinvoicingSettings> {
  const stored = await storedRow(deps.db, organizationId);
  const box = secretBoxFor(deps.env);
  const problems: [Field, string][] = [];
  const newSecret = input.client_secret ?? '';
  const newToken = input.token ?? '';
  // Any OAuth2 field typed means OAuth2, even if the token URL is the one forgotten.
  const oauth = input.token_url !== '' || input.client_id !== '' || newSecret !== '';
  if (input.mode === 'afnor') {
    if (input.flow_url === '') problems.push(['flow_url', 'obligatoire pour une plateforme agréée']);
    if (input.directory_url === '') problems.push(['directory_url', 'obligatoire pour une plateforme agréée']);
    if (input.pa_matricule === '') problems.push(['pa_matricule', 'obligatoire (4 caractères, donné par votre plateforme)']);
    if (oauth) {
      if (input.token_url === '') problems.push(['token_url', 'obligatoire avec un identifiant et un secret client OAuth2']);
      if (input.client_id === '') problems.push(['client_id', 'obligatoire avec une URL de jeton OAuth2']);
      if (newSecret === '' && stored.client_secret === '') problems.push(['client_secret', 'obligatoire avec une URL de jeton OAuth2']);
    } else if (newToken === '' && stored.token === '') {
      problems.push(['token', 'saisissez un jeton d’accès, ou l’URL du jeton OAuth2 avec l’identifiant et le secret client']);
    }
    for (const field of ['flow_url', 'directory_url', 'token_url'] as const) {
      if (input[field] === '') continue;
      const error = await reachabilityError(input[field], deps.env.outbound.allowPrivate);
      if (error) problems.push([field, error]);
    }
  }
  if (problems.length > 0) {
    const messages = problems.map(([field, text]) => `${EINVOICING_FIELD_LABELS[field]} : ${text}`);
    const fields: FieldErrors = Object.fromEntries(problems.map(([field, text]) => [field, text.charAt(0).toUpperCase() + text.slice(1)]));
    throw new AppError('BAD_REQUEST', messages.length === 1 ? (messages[0] as string) : messages, fields);
  }
  const row: EinvoicingSettingsRow = {
    mode: input.mode,
    flow_url: input.flow_url,
    directory_url: input.directory_url,
    token_url: input.token_url,
    client_id: oauth ? input.client_id : '',
    client_secret: !oauth ? '' : newSecret !== '' ? box.seal(newSecret) : stored.client_secret,
    token: oauth ? '' : newToken !== '' ? box.seal(newToken) : stored.token,
    pa_matricule: input.pa_matricule.toUpperCase(),
    syntax: input.syntax,
    profile: input.profile,
  };
  await upsertEinvoicingSettings(deps.db, { organizationId, row });
  return publicSettings(row);
}

/** The organisation's platform connection with its secrets opened, or a 409 saying the API is not configured. */
export async function afnorConnectionOf(deps: Deps, organizationId: number): Promise<AfnorConnection> {
  const row = await storedRow(deps.db, organizationId);
  if (row.mode !== 'afnor') {
    fail(
      'CONFLICT',
      'Aucune plateforme agréée n’est configurée : choisissez « Plateforme agréée (API AFNOR XP Z12-013) » dans Paramètres → Facturation électronique',
    );
  }
  const box = secretBoxFor(deps.env);
  try {
    return {
      organizationId,
      flowUrl: row.flow_url,
      directoryUrl: row.directory_url,
      auth:
        row.token_url !== ''
          ? { kind: 'oauth', tokenUrl: row.token_url, clientId: row.client_id, clientSecret: box.open(row.client_secret) }
          : { kind: 'bearer', token: box.open(row.token) },
      allowPrivate: deps.env.outbound.allowPrivate,
    };
  } catch (error) {
    if (error instanceof SecretKeyMismatchError) fail('PRECONDITION_FAILED', error.message);
    throw error;
  }
}
