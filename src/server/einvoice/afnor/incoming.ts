import { z } from 'zod';
import type { AfnorClient } from './client';
import { type FlowCallOptions, readAnswer } from './flows';

/**
 * The Flow Service operations incoming flows need (XP Z12-013 Flow Service 1.3.0): `POST /v1/flows/search` for the
 * flows received since a date (`updatedAfter`, strict; pages chained by `nextCursor`), and `GET /v1/flows/{flowId}`
 * with `docType=Original` for a flow's file as its sender made it.
 */

/** The flow types Facturier acts on: a supplier's invoice, and a status of one of its own invoices. */
export const INCOMING_FLOW_TYPES = ['SupplierInvoice', 'CustomerInvoiceLC'] as const;
export type IncomingFlowType = (typeof INCOMING_FLOW_TYPES)[number];

/** The API's maximum page. */
const PAGE = 100;

export interface IncomingFlow {
  flowId: string;
  flowType: string;
  name: string;
  flowSyntax: string;
  /** The platform's last update of the flow, as an ISO instant (milliseconds): what the cursor follows. */
  updatedAt: string;
  ackStatus: 'Pending' | 'Ok' | 'Error';
}

const isoInstant = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'date-time attendue')
  .transform((s) => new Date(s).toISOString());

const incomingSchema = z.object({
  flowId: z.string().min(1).max(64),
  flowType: z.string().max(64),
  name: z.string().max(255).optional(),
  flowSyntax: z.string().max(32).optional(),
  updatedAt: isoInstant,
  acknowledgement: z.object({ status: z.enum(['Pending', 'Ok', 'Error']) }),
});
const pageSchema = z.object({ results: z.array(incomingSchema).optional(), nextCursor: z.string().min(1).optional() });

/** One page of the flows received after `updatedAfter` (all of them when null), of the types Facturier acts on. */
export async function searchIncomingFlows(
  client: AfnorClient,
  params: { updatedAfter: string | null; cursor?: string },
  options: FlowCallOptions = {},
): Promise<{ flows: IncomingFlow[]; nextCursor: string | null }> {
  const where = {
    flowDirection: ['In'],
    flowType: [...INCOMING_FLOW_TYPES],
    ...(params.updatedAfter ? { updatedAfter: params.updatedAfter } : {}),
  };
  const answer = await client.call('flow', {
    method: 'POST',
    path: '/v1/flows/search',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ where, limit: PAGE, ...(params.cursor ? { cursor: params.cursor } : {}) }),
    ...options,
  });
  const page = readAnswer(answer, pageSchema, 'la recherche des flux reçus');
  const flows = (page.results ?? []).map((f) => ({
    flowId: f.flowId,
    flowType: f.flowType,
    name: f.name ?? '',
    flowSyntax: f.flowSyntax ?? '',
    updatedAt: f.updatedAt,
    ackStatus: f.acknowledgement.status,
  }));
  return { flows, nextCursor: page.nextCursor ?? null };
}

/** The file of a flow as its sender made it (`docType=Original`), `maxBytes` at most (`too-large` beyond). */
export async function downloadFlow(client: AfnorClient, flowId: string, maxBytes: number, options: FlowCallOptions = {}): Promise<Buffer> {
  const answer = await client.call('flow', {
    method: 'GET',
    path: `/v1/flows/${encodeURIComponent(flowId)}?docType=Original`,
    headers: { accept: 'application/octet-stream' },
    maxBytes,
    ...options,
  });
  return answer.body;
}
