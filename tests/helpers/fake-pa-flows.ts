import crypto from 'node:crypto';
import type { FakeAnswer, FakePa, FakePart } from './fake-pa';

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
}

const asFlow = (f: FakeFlow) => ({
  flowId: f.flowId,
  submittedAt: f.submittedAt,
  updatedAt: f.submittedAt,
  trackingId: f.trackingId,
  name: f.name,
  processingRule: f.processingRule,
  flowSyntax: f.flowSyntax,
  flowProfile: f.flowProfile,
  sha256: f.sha256,
  flowType: 'CustomerInvoice',
  flowDirection: 'Out',
  processingRuleSource: 'Input',
  acknowledgement: f.ack.details?.length ? f.ack : { status: f.ack.status },
});

const error = (status: number, errorCode: string, errorMessage: string): FakeAnswer => ({ status, body: { errorCode, errorMessage } });

export function serveFlows(pa: FakePa): FakeFlowService {
  const service: FakeFlowService = {
    flows: [],
    acks: [],
    refusals: [],
    seed(flow) {
      const seeded: FakeFlow = {
        flowId: `flow-${crypto.randomUUID()}`,
        name: 'facture.xml',
        processingRule: 'B2B',
        flowSyntax: 'CII',
        flowProfile: 'CIUS',
        sha256: '0'.repeat(64),
        submittedAt: new Date().toISOString(),
        ack: { status: 'Ok' },
        file: null,
        requestId: null,
        ...flow,
      };
      service.flows.push(seeded);
      return seeded;
    },
    ofTracking: (trackingId) => service.flows.filter((f) => f.trackingId === trackingId),
  };

  pa.handle('flow', 'POST', '/v1/flows', (request) => {
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
    const flow = service.seed({
      trackingId,
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
          : (service.acks.shift() ?? { status: 'Ok' }),
      file,
      requestId: (request.headers['request-id'] as string | undefined) ?? null,
    });
    const { flowId, submittedAt, name, processingRule, flowSyntax, flowProfile } = flow;
    return { status: 202, body: { flowId, submittedAt, trackingId, name, processingRule, flowSyntax, flowProfile, sha256 } };
  });

  pa.handle('flow', 'POST', '/v1/flows/search', (request) => {
    const where = (JSON.parse(request.body.toString('utf8')) as { where: { trackingId?: string } }).where;
    const results = service.flows.filter((f) => where.trackingId === undefined || f.trackingId === where.trackingId).map(asFlow);
    return { status: 200, body: { limit: 25, results } };
  });

  pa.handle('flow', 'GET', '/v1/flows/{flowId}', (request) => {
    const flow = service.flows.find((f) => f.flowId === request.params.flowId);
    return flow ? { status: 200, body: asFlow(flow) } : error(404, 'NOT_FOUND', 'No such flow');
  });

  return service;
}
