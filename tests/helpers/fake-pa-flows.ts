import crypto from 'node:crypto';
import type { FakeAnswer, FakePa, FakePart } from './fake-pa';
import { validateFlux10 } from '../../src/server/einvoice/flux10-validate';

/**
 * The fake platform's Flow Service as a store of flows: `POST /v1/flows` creates one (a second live flow with the same
 * trackingId is refused as `AlreadyExistingFlow`, as a platform's unicity check does), `POST /v1/flows/search` finds
 * them by trackingId, `GET /v1/flows/{flowId}` answers one's metadata and acknowledgement. Every request and answer
 * still goes through the fake's OpenAPI checks.
 */
export interface FakeAck {
  status: 'Pending' | 'Ok' | 'Error';
  details?: { level: 'Error' | 'Warning'; item: string; reasonCode: string; reasonMessage: string }[];
}

export interface FakeFlow {
  flowId: string;
  trackingId: string;
  /** 'Out': submitted by Facturier; 'In': placed by a test for Facturier to receive. */
  flowDirection: 'In' | 'Out';
  flowType: string;
  /** The platform's last update of the flow (ISO): what a search by `updatedAfter` compares. */
  updatedAt: string;
  name: string;
  processingRule: string;
  flowSyntax: string;
  flowProfile: string;
  sha256: string;
  submittedAt: string;
  ack: FakeAck;
  /** The `file` part as received (absent for a flow seeded by a test). */
  file: FakePart | null;
  /** The request's Request-Id header. */
  requestId: string | null;
}

export interface FakeFlowService {
  flows: FakeFlow[];
  /** The acknowledgement of the next flows created, in order (then Ok). */
  acks: FakeAck[];
  /** Answers that replace the next submissions' (a 422 with its reason…), in order. */
  refusals: FakeAnswer[];
  /** A flow the platform holds already (submitted by a run the product does not remember). */
  seed(flow: Partial<FakeFlow> & { trackingId: string }): FakeFlow;
  ofTracking(trackingId: string): FakeFlow[];
  /**
   * A flow for Facturier to receive: a supplier's invoice (`SupplierInvoice`) or a lifecycle message about one of its
   * invoices (`CustomerInvoiceLC`), its file as the sender made it; updated now unless `updatedAt` says otherwise.
   */
  receive(flow: { flowType: 'SupplierInvoice' | 'CustomerInvoiceLC'; data: Buffer; name?: string } & Partial<FakeFlow>): FakeFlow;
  /**
   * The platform's (or the PPF's) later answer to a flow, an e-reporting one mostly: its acknowledgement becomes `ack`
   * and its `updatedAt` moves (to now unless given), so that a search by `updatedAfter` finds it again.
   */
  settle(flowId: string, ack: FakeAck, updatedAt?: string): FakeFlow;
  /** Files downloaded (GET /v1/flows/{flowId}?docType=Original), by flow id, in order. */
  downloads: string[];
  /** The e-reporting files (Flux 10) received, as sent. */
  reports: string[];
}

const asFlow = (f: FakeFlow) => ({
  flowId: f.flowId,
  submittedAt: f.submittedAt,
  updatedAt: f.updatedAt,
  trackingId: f.trackingId,
  name: f.name,
  processingRule: f.processingRule,
  flowSyntax: f.flowSyntax,
  flowProfile: f.flowProfile,
  sha256: f.sha256,
  flowType: f.flowType,
  flowDirection: f.flowDirection,
  processingRuleSource: 'Input',
  acknowledgement: f.ack.details?.length ? f.ack : { status: f.ack.status },
});

/** The Flow Service's type of an e-reporting file, as a platform qualifies it from its content. */
function reportFlowType(processingRule: string, xml: string): string {
  const payments = xml.includes('<PaymentsReport>');
  if (processingRule === 'B2C') return payments ? 'AggregatedCustomerPaymentReport' : 'AggregatedCustomerTransactionReport';
  if (payments) return 'UnitaryCustomerPaymentReport';
  return /<Issuer>[\s\S]*?<RoleCode>BY<\/RoleCode>/.test(xml) ? 'UnitarySupplierTransactionReport' : 'UnitaryCustomerTransactionReport';
}

const error = (status: number, errorCode: string, errorMessage: string): FakeAnswer => ({ status, body: { errorCode, errorMessage } });

export function serveFlows(pa: FakePa): FakeFlowService {
  const service: FakeFlowService = {
    flows: [],
    acks: [],
    refusals: [],
    downloads: [],
    reports: [],
    seed(flow) {
      const submittedAt = flow.submittedAt ?? new Date().toISOString();
      const seeded: FakeFlow = {
        flowId: `flow-${crypto.randomUUID()}`,
        flowDirection: 'Out',
        flowType: 'CustomerInvoice',
        updatedAt: flow.updatedAt ?? submittedAt,
        name: 'facture.xml',
        processingRule: 'B2B',
        flowSyntax: 'CII',
        flowProfile: 'CIUS',
        sha256: '0'.repeat(64),
        submittedAt,
        ack: { status: 'Ok' },
        file: null,
        requestId: null,
        ...flow,
      };
      service.flows.push(seeded);
      return seeded;
    },
    ofTracking: (trackingId) => service.flows.filter((f) => f.trackingId === trackingId),
    settle(flowId, ack, updatedAt) {
      const flow = service.flows.find((f) => f.flowId === flowId);
      if (!flow) throw new Error(`fake PA: no flow ${flowId}`);
      // A later update is always later, even within the same millisecond as the submission.
      const at = updatedAt ?? new Date(Math.max(Date.now(), Date.parse(flow.updatedAt) + 1)).toISOString();
      Object.assign(flow, { ack, updatedAt: at });
      return flow;
    },
    receive({ data, name, ...flow }) {
      const xml = !data.subarray(0, 5).toString('latin1').startsWith('%PDF');
      return service.seed({
        trackingId: `supplier-${crypto.randomUUID()}`,
        flowDirection: 'In',
        name: name ?? (flow.flowType === 'SupplierInvoice' ? 'facture.xml' : 'statut.xml'),
        flowSyntax: flow.flowType === 'SupplierInvoice' ? (xml ? 'CII' : 'Factur-X') : 'CDAR',
        sha256: crypto.createHash('sha256').update(data).digest('hex'),
        file: { filename: name ?? 'flux', contentType: xml ? 'application/xml' : 'application/pdf', data },
        ...flow,
      });
    },
  };

  /**
   * An e-reporting file (syntax FRR) is checked as a platform checks it before passing it to the PPF: the Flux 10
   * schema and schematron; what fails is acknowledged Error with each rule as a reason.
   */
  const flux10Ack = async (data: Buffer): Promise<FakeAck | null> => {
    const result = await validateFlux10(data.toString('utf8'));
    const details = [
      ...result.problems.map((p) => ({
        level: 'Error' as const,
        item: `line ${p.line}`,
        reasonCode: 'REJ_SCHEMA',
        reasonMessage: p.message,
      })),
      ...result.asserts
        .filter((a) => a.flag === 'fatal')
        .map((a) => ({
          level: 'Error' as const,
          item: a.location.slice(0, 1000),
          reasonCode: 'REJ_SEMAN',
          reasonMessage: a.message.slice(0, 2000),
        })),
    ];
    return details.length > 0 ? { status: 'Error', details } : null;
  };

  pa.handle('flow', 'POST', '/v1/flows', async (request) => {
    const refusal = service.refusals.shift();
    if (refusal) return refusal;
    const infoPart = request.parts.get('flowInfo');
    const file = request.parts.get('file');
    if (!infoPart || !file) return error(400, 'MISSING_REQUIRED_FIELD', 'flowInfo and file are required');
    const info = JSON.parse(infoPart.data.toString('utf8')) as Record<string, string>;
    const trackingId = info.trackingId ?? '';
    if (service.ofTracking(trackingId).some((f) => f.ack.status !== 'Error')) {
      return error(422, 'AlreadyExistingFlow', 'A flow with this trackingId was already received');
    }
    const sha256 = crypto.createHash('sha256').update(file.data).digest('hex');
    const report = info.flowSyntax === 'FRR' ? await flux10Ack(file.data) : null;
    if (info.flowSyntax === 'FRR') service.reports.push(file.data.toString('utf8'));
    const flow = service.seed({
      trackingId,
      flowType: info.flowSyntax === 'FRR' ? reportFlowType(info.processingRule ?? '', file.data.toString('utf8')) : 'CustomerInvoice',
      name: info.name ?? '',
      processingRule: info.processingRule ?? 'Undefined',
      flowSyntax: info.flowSyntax ?? '',
      flowProfile: info.flowProfile ?? 'Undefined',
      sha256,
      ack:
        info.sha256 && info.sha256 !== sha256
          ? {
              status: 'Error',
              details: [{ level: 'Error', item: 'sha256', reasonCode: 'ChecksumMismatch', reasonMessage: 'Checksum mismatch' }],
            }
          : (report ?? service.acks.shift() ?? { status: 'Ok' }),
      file,
      requestId: (request.headers['request-id'] as string | undefined) ?? null,
    });
    const { flowId, submittedAt, name, processingRule, flowSyntax, flowProfile } = flow;
    return { status: 202, body: { flowId, submittedAt, trackingId, name, processingRule, flowSyntax, flowProfile, sha256 } };
  });

  // Every criterion given must hold (the document's AND; a list is an OR); results by updatedAt, paged by an opaque
  // cursor (here the offset of the next result).
  pa.handle('flow', 'POST', '/v1/flows/search', (request) => {
    const params = JSON.parse(request.body.toString('utf8')) as {
      where: { trackingId?: string; flowDirection?: string[]; flowType?: string[]; updatedAfter?: string };
      limit?: number;
      cursor?: string;
    };
    const { where } = params;
    const after = where.updatedAfter === undefined ? null : Date.parse(where.updatedAfter);
    const matching = service.flows
      .filter(
        (f) =>
          (where.trackingId === undefined || f.trackingId === where.trackingId) &&
          (where.flowDirection === undefined || where.flowDirection.includes(f.flowDirection)) &&
          (where.flowType === undefined || where.flowType.includes(f.flowType)) &&
          (after === null || Date.parse(f.updatedAt) > after),
      )
      .sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
    const limit = params.limit ?? 25;
    const offset = params.cursor ? Number(Buffer.from(params.cursor, 'base64url').toString('utf8')) : 0;
    const results = matching.slice(offset, offset + limit).map(asFlow);
    const next = offset + limit < matching.length ? Buffer.from(String(offset + limit)).toString('base64url') : undefined;
    return { status: 200, body: { limit, results, ...(next ? { nextCursor: next } : {}) } };
  });

  pa.handle('flow', 'GET', '/v1/flows/{flowId}', (request) => {
    const flow = service.flows.find((f) => f.flowId === request.params.flowId);
    if (!flow) return error(404, 'NOT_FOUND', 'No such flow');
    const docType = request.query.get('docType') ?? 'Metadata';
    if (docType === 'Metadata') return { status: 200, body: asFlow(flow) };
    if (docType !== 'Original' || !flow.file) return error(404, 'NOT_FOUND', `No ${docType} file for this flow`);
    service.downloads.push(flow.flowId);
    return {
      status: 200,
      headers: { 'content-disposition': `attachment;filename=${flow.name.replace(/[^\w.-]+/g, '_')}` },
      file: { contentType: 'application/octet-stream', data: flow.file.data },
    };
  });

  return service;
}
