import crypto from 'node:crypto';
import { z } from 'zod';
import type { AfnorClient } from './client';
import { AfnorError } from './errors';
import type { AfnorAnswer } from './http';

/**
 * The Flow Service operations an outgoing invoice needs (XP Z12-013 Flow Service 1.3.0): `POST /v1/flows` (createFlow),
 * `POST /v1/flows/search` (searchFlows) by trackingId, `GET /v1/flows/{flowId}` (getFlow, its metadata). Answers are
 * read through schemas: a 2xx the document does not describe is `garbage`, never taken for an acceptance.
 */

/** `FlowSyntax` and `FlowProfile` as the document spells them. */
export type FlowSyntax = 'Factur-X' | 'CII' | 'UBL' | 'CDAR' | 'FRR';
export type FlowProfile = 'CIUS' | 'Extended-CTC-FR';
export const ACK_STATUSES = ['Pending', 'Ok', 'Error'] as const;
export type AckStatus = (typeof ACK_STATUSES)[number];

/** `FlowInfo`: what qualifies the file. `name` is required, at most 255 characters. */
export interface FlowInfo {
  trackingId: string;
  name: string;
  /**
   * B2B an e-invoice or its lifecycle; B2C the e-reporting of sales to private persons and their payments (Flux 10.3,
   * 10.4); B2BInt that of international B2B sales and their payments (10.1, 10.2).
   */
  processingRule: 'B2B' | 'B2C' | 'B2BInt';
  flowSyntax: FlowSyntax;
  /** Declared for invoices; a lifecycle message (CDAR) has no profile. */
  flowProfile?: FlowProfile;
  /** Lower-case hex SHA-256 of the file: the platform checks it on receipt (`ChecksumMismatch` otherwise). */
  sha256: string;
}

export interface FlowFile {
  name: string;
  contentType: 'application/pdf' | 'application/xml';
  bytes: Buffer;
}

/** One `AcknowledgementDetail`: a reason code on an item, with the platform's message. */
export interface AckDetail {
  level: 'Error' | 'Warning';
  item: string;
  reasonCode: string;
  reasonMessage: string;
}

/** A flow as the platform knows it: its id and where its acknowledgement stands. */
export interface KnownFlow {
  flowId: string;
  trackingId: string | null;
  ackStatus: AckStatus;
  details: AckDetail[];
  submittedAt: string | null;
  updatedAt: string | null;
}

const flowId = z.string().min(1).max(64);
const acceptedSchema = z.object({ flowId, submittedAt: z.string().min(1) });
const detailSchema = z.object({
  level: z.enum(['Error', 'Warning']),
  item: z.string().max(1000),
  reasonCode: z.string().max(200),
  reasonMessage: z.string().max(2000),
});
const flowSchema = z.object({
  flowId,
  trackingId: z.string().max(64).optional(),
  submittedAt: z.string().optional(),
  updatedAt: z.string().optional(),
  acknowledgement: z.object({ status: z.enum(ACK_STATUSES), details: z.array(detailSchema).optional() }),
});
const searchSchema = z.object({ results: z.array(flowSchema).optional(), nextCursor: z.string().optional() });

const knownFlowOf = (flow: z.infer<typeof flowSchema>): KnownFlow => ({
  flowId: flow.flowId,
  trackingId: flow.trackingId ?? null,
  ackStatus: flow.acknowledgement.status,
  details: flow.acknowledgement.details ?? [],
  submittedAt: flow.submittedAt ?? null,
  updatedAt: flow.updatedAt ?? null,
});

/** A 2xx read through its schema; anything else is the platform answering garbage. */
export function readAnswer<T>(answer: AfnorAnswer, schema: z.ZodType<T>, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new AfnorError('flow', 'garbage', `réponse illisible à ${what} (HTTP ${answer.status}, pas du JSON)`, answer.status);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(racine)'))].slice(0, 5).join(', ');
    throw new AfnorError('flow', 'garbage', `réponse non conforme à ${what} (HTTP ${answer.status} ; champs : ${fields})`, answer.status);
  }
  return parsed.data;
}

/** RFC 7578 multipart/form-data with the two parts of `FlowPostRequest`: `flowInfo` (JSON) and `file`. */
export function flowMultipart(info: FlowInfo, file: FlowFile): { contentType: string; body: Buffer } {
  const boundary = `facturier-${crypto.randomBytes(12).toString('hex')}`;
  // The name travels in a quoted header parameter: only characters that need no escaping.
  const filename = file.name.replace(/[^\w.-]+/g, '_');
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="flowInfo"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(info)}\r\n`,
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}

export interface FlowCallOptions {
  requestId?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** createFlow: the platform's 202 names the new flow (its acknowledgement comes later, see `getFlow`). */
export async function submitFlow(
  client: AfnorClient,
  info: FlowInfo,
  file: FlowFile,
  options: FlowCallOptions = {},
): Promise<{ flowId: string; submittedAt: string }> {
  const { contentType, body } = flowMultipart(info, file);
  const answer = await client.call('flow', {
    method: 'POST',
    path: '/v1/flows',
    headers: { 'content-type': contentType },
    body,
    ...options,
  });
  return readAnswer(answer, acceptedSchema, 'l’envoi de la facture');
}

/** searchFlows by trackingId, our outgoing flows only: what the platform already holds of one document. */
export async function findFlowsByTrackingId(client: AfnorClient, trackingId: string, options: FlowCallOptions = {}): Promise<KnownFlow[]> {
  const answer = await client.call('flow', {
    method: 'POST',
    path: '/v1/flows/search',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ where: { trackingId, flowDirection: ['Out'] }, limit: 25 }),
    ...options,
  });
  return (readAnswer(answer, searchSchema, 'la recherche de flux').results ?? []).map(knownFlowOf);
}

/** getFlow's metadata: the acknowledgement of a flow submitted earlier. */
export async function getFlow(client: AfnorClient, id: string, options: FlowCallOptions = {}): Promise<KnownFlow> {
  const answer = await client.call('flow', {
    method: 'GET',
    path: `/v1/flows/${encodeURIComponent(id)}?docType=Metadata`,
    headers: { accept: 'application/json' },
    ...options,
  });
  return knownFlowOf(readAnswer(answer, flowSchema, 'la lecture du flux'));
}
