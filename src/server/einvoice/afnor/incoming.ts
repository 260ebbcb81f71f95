import { z } from 'zod';
import type { AfnorClient } from './client';
import { type FlowCallOptions, readAnswer } from './flows';

/**
 * The Flow Service operations incoming flows need (XP Z12-013 Flow Service 1.3.0): `POST /v1/flows/search` for the
 * flows received since a date (`updatedAfter`, strict; pages chained by `nextCursor`), and `GET /v1/flows/{flowId}`
 * with `docType=Original` for a flow's file as its sender made it.
 */

/** The flow types Facturier receives: a supplier's invoice, and a status of one of its own invoices. */
export const INCOMING_FLOW_TYPES = ['SupplierInvoice', 'CustomerInvoiceLC'] as const;
export type IncomingFlowType = (typeof INCOMING_FLOW_TYPES)[number];

/**
 * The e-reporting flows (Flux 10) Facturier submits: the platform updates their acknowledgement after the checks (its
 * own and the PPF's), so the same search reads their outcome as it reads incoming flows.
 */
export const EREPORTING_FLOW_TYPES = [
  'AggregatedCustomerTransactionReport',
  'UnitaryCustomerTransactionReport',
  'AggregatedCustomerPaymentReport',
  'UnitaryCustomerPaymentReport',
  'UnitarySupplierTransactionReport',
  'MultiFlowReport',
] as const;

/** Whether a flow found by the search is the outcome of one of the organisation's own e-reporting flows. */
export const isReportFlow = (flow: Pick<IncomingFlow, 'flowDirection' | 'flowType'>) =>
  flow.flowDirection === 'Out' && (EREPORTING_FLOW_TYPES as readonly string[]).includes(flow.flowType);

/** The API's maximum page. */
const PAGE = 100;

export interface IncomingFlow {
  flowId: string;
  flowType: string;
  /** 'In' received; 'Out' one of the organisation's own flows (its e-reporting), whose acknowledgement changed. */
  flowDirection: 'In' | 'Out';
  trackingId: string | null;
  name: string;
  flowSyntax: string;
  /** The platform's last update of the flow, as an ISO instant (milliseconds): what the cursor follows. */
  updatedAt: string;
  ackStatus: 'Pending' | 'Ok' | 'Error';
  /** The acknowledgement's reasons (an Error's codes), as the platform gave them. */
  details: { level: 'Error' | 'Warning'; item: string; reasonCode: string; reasonMessage: string }[];
}

const isoInstant = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'date-time attendue')
  .transform((s) => new Date(s).toISOString());

const incomingSchema = z.object({
  flowId: z.string().min(1).max(64),
  flowType: z.string().max(64),
  flowDirection: z.enum(['In', 'Out']),
  trackingId: z.string().max(64).optional(),
  name: z.string().max(255).optional(),
  flowSyntax: z.string().max(32).optional(),
  updatedAt: isoInstant,
  acknowledgement: z.object({
    status: z.enum(['Pending', 'Ok', 'Error']),
    details: z
      .array(
        z.object({
          level: z.enum(['Error', 'Warning']),
          item: z.string().max(1000),
          reasonCode: z.string().max(200),
          reasonMessage: z.string().max(2000),
        }),
      )
      .optional(),
  }),
});
const pageSchema = z.object({ results: z.array(incomingSchema).optional(), nextCursor: z.string().min(1).optional() });

/**
 * One page of the flows updated after `updatedAfter` (all of them when null) that Facturier acts on: those received
 * of the types above, and its own e-reporting flows (their acknowledgement). A flow of another type or direction that
 * the filters' combinations let through is passed over by the caller.
 */
export async function searchIncomingFlows(
  client: AfnorClient,
  params: { updatedAfter: string | null; cursor?: string },
  options: FlowCallOptions = {},
): Promise<{ flows: IncomingFlow[]; nextCursor: string | null }> {
  const where = {
    flowDirection: ['In', 'Out'],
    flowType: [...INCOMING_FLOW_TYPES, ...EREPORTING_FLOW_TYPES],
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
    flowDirection: f.flowDirection,
    trackingId: f.trackingId ?? null,
    name: f.name ?? '',
    flowSyntax: f.flowSyntax ?? '',
    updatedAt: f.updatedAt,
    ackStatus: f.acknowledgement.status,
    details: f.acknowledgement.details ?? [],
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
