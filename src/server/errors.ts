import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { sharedFieldLabels } from '../shared/schemas/labels';
import { type IssueDetail, validationMessages as formatIssues } from '../shared/validation-messages';

/**
 * An error whose French message(s) we wrote for the user. Anything else that reaches the client is replaced by
 * the generic message of its code, so no English library text or stack trace ever leaves the server.
 */
export class AppError extends TRPCError {
  readonly messages: string | string[];
  /** The fields a 400 is about, each with its message, so that a form shows it beside the field. */
  readonly fields: FieldErrors | undefined;
  constructor(code: TRPC_ERROR_CODE_KEY, messages: string | string[], fields?: FieldErrors) {
    super({ code, message: Array.isArray(messages) ? messages.join('\n') : messages });
    this.messages = messages;
    this.fields = fields;
  }
}

/** A field's path in the form's input ('customer_id', 'address.postal_code') → the message shown beside it. */
export type FieldErrors = Record<string, string>;

/** 'Client : introuvable' beside the Client field reads 'Introuvable': the label is already there. */
export function besideField(message: string): string {
  const text = message.includes(' : ') ? message.slice(message.indexOf(' : ') + 3) : message;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A 400 about one field: the message names it for the banner and the REST answer; the form shows the rest of the
 * sentence beside the field at `path`.
 */
export function failField(path: string, message: string): never {
  throw new AppError('BAD_REQUEST', message, { [path]: besideField(message) });
}

/** A function declaration (not an arrow) so that `if (!row) fail(…)` narrows `row` for the code after it. */
export function fail(code: TRPC_ERROR_CODE_KEY, messages: string | string[]): never {
  throw new AppError(code, messages);
}

export const INTERNAL_ERROR_MESSAGE = 'Erreur interne du serveur';
/** A 503 while the process stops: the client retries, on another process behind a load balancer. */
export const SERVER_STOPPING_MESSAGE = 'Serveur en cours d’arrêt : réessayez dans un instant';

const defaultMessages: Partial<Record<TRPC_ERROR_CODE_KEY, string>> = {
  PARSE_ERROR: 'Le corps de la requête n’est pas un JSON valide',
  BAD_REQUEST: 'Requête invalide',
  UNAUTHORIZED: 'Veuillez vous connecter',
  FORBIDDEN: 'Action non autorisée',
  NOT_FOUND: 'Ressource introuvable',
  METHOD_NOT_SUPPORTED: 'Méthode non prise en charge pour cette adresse',
  CONFLICT: 'Cette action est en conflit avec l’état actuel',
  PAYLOAD_TOO_LARGE: 'La requête est trop volumineuse',
  TOO_MANY_REQUESTS: 'Trop de tentatives, réessayez plus tard',
  UNSUPPORTED_MEDIA_TYPE: 'Type de contenu non pris en charge (JSON attendu)',
};

function isZodErrorLike(cause: unknown): cause is { issues: IssueDetail[] } {
  return typeof cause === 'object' && cause !== null && Array.isArray((cause as { issues?: unknown }).issues);
}

/**
 * One message per offending field, named by the label the schema that refused it carries along the issue's path
 * (the shared formatter). Without that schema, labels are looked up by the field's key.
 */
export function validationMessages(issues: readonly IssueDetail[], schema?: z.core.$ZodType): string[] {
  const { byKey, all } = sharedFieldLabels();
  return formatIssues(issues, schema ?? byKey, all);
}

/**
 * The fields a 400 names, for the forms: our own (`failField`) or Zod's issues, keyed by their path in the body the
 * user wrote (the `data` of an `{ id, data }` update is the form).
 */
export function fieldsOf(error: TRPCError): FieldErrors | undefined {
  if (error instanceof AppError) return error.fields;
  if (error.code !== 'BAD_REQUEST' || !isZodErrorLike(error.cause)) return undefined;
  const fields: FieldErrors = {};
  for (const issue of error.cause.issues) {
    const path = issue.path[0] === 'data' ? issue.path.slice(1) : issue.path;
    if (path.length > 0) fields[path.map(String).join('.')] ??= issue.message;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** The French message(s) of an error; `input` is the schema of the procedure whose input was refused, if known. */
export function messagesOf(error: TRPCError, input?: z.core.$ZodType): string | string[] {
  if (error instanceof AppError) return error.messages;
  if (error.code === 'BAD_REQUEST' && isZodErrorLike(error.cause)) {
    const list = validationMessages(error.cause.issues, input);
    return list.length === 1 ? (list[0] ?? defaultMessages.BAD_REQUEST ?? INTERNAL_ERROR_MESSAGE) : list;
  }
  if (error.code === 'BAD_REQUEST' && error.cause instanceof SyntaxError) return defaultMessages.PARSE_ERROR ?? INTERNAL_ERROR_MESSAGE; // tRPC's `input=` query
  return defaultMessages[error.code] ?? INTERNAL_ERROR_MESSAGE;
}
