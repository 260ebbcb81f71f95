import crypto from 'node:crypto';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { AppError } from '../errors';
import { logger } from '../logger';
import { pdfFileName } from '../../shared/document-types';
import { parisDateOf } from '../../shared/paris-date';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { type FlowRow, updateClaimedFlow } from '../db/queries/einvoice-flows';
import { findDocument } from '../db/queries/documents';
import { AfnorClient } from '../einvoice/afnor/client';
import { AfnorError } from '../einvoice/afnor/errors';
import {
  type AckDetail,
  type FlowFile,
  type FlowInfo,
  type KnownFlow,
  findFlowsByTrackingId,
  getFlow,
  submitFlow,
} from '../einvoice/afnor/flows';
import { afnorConnectionOf, getEinvoicingSettings } from './einvoicing-settings';
import { appendAudit } from './audit';
import { appendStatus } from './einvoice-lifecycle';
import { type FlowDelays, at, delayOf, retryOrGiveUp, submissionFailure } from './einvoice-flow-policy';
import { documentOf } from './pdf-archive';
import { flowRecipientProblem } from './einvoice-transmit';

/** What the outbox needs of the app: the database, the secrets' key, and the files of an issued document. */
export interface FlowOutboxDeps {
  db: Db;
  env: Env;
  /** The EN 16931 XML of an issued document; absent where this server writes none (some tests). */
  xml?: (organizationId: number, documentId: number, syntax: 'cii' | 'ubl') => Promise<string>;
  /** The archived Factur-X PDF, as every download serves it. */
  pdf: (doc: StoredDocument) => Promise<Buffer>;
}

/** A submission carries a file (up to 100 MB by the API): more time than a JSON call (AFNOR_TIMEOUT_MS). */
const SUBMIT_TIMEOUT_MS = 60_000;

const PLATFORM = 'API XP Z12-013';
const SYNTAX = { 'factur-x': 'Factur-X', cii: 'CII', ubl: 'UBL' } as const;

/** Thrown in a transaction whose claim another process took over: nothing of it commits. */
class ClaimLost extends Error {}

/** What one attempt needs of the outbox that claimed it. */
export interface AttemptContext {
  deps: FlowOutboxDeps;
  /** The claim's holder: every write of the attempt is conditioned on it. */
  holder: string;
  now: () => Date;
  random: () => number;
  delays: FlowDelays;
  timeoutMs: number | undefined;
  /** Ends the calls in flight when the server stops. */
  signal: () => AbortSignal;
}

/**
 * One attempt on a submission the outbox claimed (services/einvoice-outbox.ts): the submission itself — the platform
 * asked first by trackingId when an earlier attempt's outcome is unknown — or the reading of its acknowledgement;
 * then what was learnt is written under the claim, and the claim released.
 */
export class FlowAttempt {
  private readonly deps: FlowOutboxDeps;
  private readonly holder: string;
  private readonly now: () => Date;
  private readonly delays: FlowDelays;
  private readonly timeoutMs: number | undefined;

  constructor(private readonly context: AttemptContext) {
    this.deps = context.deps;
    this.holder = context.holder;
    this.now = context.now;
    this.delays = context.delays;
    this.timeoutMs = context.timeoutMs;
  }

  /** One attempt on a claimed submission: its submission, or the reading of its acknowledgement. */
  async run(row: FlowRow): Promise<void> {
    try {
      if (row.state === 'submitted') await this.readAcknowledgement(row);
      else await this.submit(row);
    } catch (error) {
      if (error instanceof ClaimLost) return;
      // A fault of ours (the database busy, a bug): logged, and tried again later like any failure. A submitted flow
      // stays submitted (only its acknowledgement is read again); a submission keeps the `uncertain` it had set before
      // posting, so a flow accepted but not recorded is found by trackingId, not posted again.
      logger.error(`e-invoice outbox: submission ${row.id} (document ${row.document_id}) failed unexpectedly`, error);
      const reason = 'erreur interne du serveur pendant l’envoi';
      const changes =
        row.state === 'submitted'
          ? { next_attempt_at: at(this.context, this.delays.retryBaseMs), last_error: reason }
          : retryOrGiveUp(this.context, row, reason, null);
      await this.update(row, changes).catch((e) => logger.error(`e-invoice outbox: submission ${row.id} not released`, e));
    }
  }

  /**
   * Writes what this attempt learnt, and releases the claim unless `keepLease` (more to write in this attempt);
   * ClaimLost when another process took the submission over, so nothing of a stale attempt is kept.
   */
  private async update(
    row: FlowRow,
    changes: Parameters<typeof updateClaimedFlow>[1]['changes'],
    options: { db?: Db; keepLease?: boolean } = {},
  ): Promise<void> {
    const ok = await updateClaimedFlow(options.db ?? this.deps.db, {
      id: row.id,
      holder: this.holder,
      now: this.now().toISOString(),
      changes,
      keepLease: options.keepLease,
    });
    if (!ok) {
      logger.info({ event: 'einvoice_flow_claim_lost', flow: row.id });
      throw new ClaimLost();
    }
  }

  /** The file the settings ask for: the archived Factur-X PDF, or the CII or UBL XML. */
  private async fileOf(doc: StoredDocument, syntax: 'factur-x' | 'cii' | 'ubl'): Promise<FlowFile> {
    if (syntax === 'factur-x') {
      return { name: pdfFileName(doc.type, doc.kind, doc.number ?? ''), contentType: 'application/pdf', bytes: await this.deps.pdf(doc) };
    }
    if (!this.deps.xml) throw new AppError('CONFLICT', 'ce serveur ne produit pas le XML EN 16931 : le dépôt est impossible');
    const xml = await this.deps.xml(doc.organization_id, doc.id, syntax);
    const name = `${(doc.number ?? String(doc.id)).replace(/[^\w.-]+/g, '_')}-${syntax}.xml`;
    return { name, contentType: 'application/xml', bytes: Buffer.from(xml, 'utf8') };
  }

  private callOptions(requestId?: string) {
    return { requestId, signal: this.context.signal(), timeoutMs: this.timeoutMs };
  }

  /** A submission to make: the platform asked first when an earlier attempt may have reached it. */
  private async submit(row: FlowRow): Promise<void> {
    const doc = await findDocument(this.deps.db, { organizationId: row.organization_id, id: row.document_id });
    let prepared: { client: AfnorClient; info: FlowInfo; file: FlowFile };
    try {
      if (!doc) throw new AppError('NOT_FOUND', 'le document n’existe plus');
      const problem = flowRecipientProblem(doc);
      if (problem) throw new AppError('CONFLICT', problem);
      const [settings, connection] = await Promise.all([
        getEinvoicingSettings(this.deps.db, row.organization_id),
        afnorConnectionOf(this.deps, row.organization_id),
      ]);
      const file = await this.fileOf(doc, settings.syntax);
      const info: FlowInfo = {
        trackingId: row.tracking_id,
        name: file.name.slice(0, 255),
        processingRule: 'B2B',
        flowSyntax: SYNTAX[settings.syntax],
        flowProfile: settings.profile,
        sha256: crypto.createHash('sha256').update(file.bytes).digest('hex'),
      };
      prepared = { client: new AfnorClient(connection), info, file };
    } catch (error) {
      // Nothing to send until the user fixes something (the settings, the key, the document): by hand, once fixed.
      if (!(error instanceof AppError)) throw error;
      await this.update(row, { state: 'to_resend', next_attempt_at: null, last_error: messageOf(error) });
      return;
    }
    const { client, info, file } = prepared;
    const document = doc as StoredDocument;
    let uncertain = row.uncertain === 1;
    try {
      if (uncertain) {
        const found = await this.adoptable(client, row);
        if (found) return await this.accepted(row, document, found, info);
        uncertain = false;
      }
      const requestId = crypto.randomUUID();
      // From here a file may leave: until the platform answers, this submission's outcome is unknown.
      await this.update(
        row,
        {
          uncertain: 1,
          syntax: info.flowSyntax,
          profile: info.flowProfile,
          last_request_id: requestId,
          last_attempt_at: this.now().toISOString(),
        },
        { keepLease: true },
      );
      const answer = await submitFlow(client, info, file, {
        ...this.callOptions(requestId),
        timeoutMs: this.timeoutMs ?? SUBMIT_TIMEOUT_MS,
      });
      const flow: KnownFlow = {
        flowId: answer.flowId,
        trackingId: info.trackingId,
        ackStatus: 'Pending',
        details: [],
        submittedAt: answer.submittedAt,
        updatedAt: null,
      };
      await this.accepted(row, document, flow, info);
    } catch (error) {
      if (!(error instanceof AfnorError)) throw error;
      if (error.platformError?.errorCode === 'AlreadyExistingFlow') {
        // The platform already holds this trackingId (a submission we never heard back from): that flow is ours.
        const found = await this.adoptable(client, row).catch(() => null);
        if (found) return await this.accepted(row, document, found, info);
      }
      const changes = submissionFailure(this.context, row, error, uncertain);
      logger.info({
        event: 'einvoice_flow_attempt_failed',
        flow: row.id,
        organization: row.organization_id,
        document: row.document_id,
        service: error.service,
        failure: error.failure,
        status: error.status,
        error_code: error.platformError?.errorCode ?? null,
        next: 'state' in changes ? changes.state : 'pending',
      });
      await this.update(row, changes);
    }
  }

  /** The platform's flow of this document that is not refused, if any (searched by trackingId). */
  private async adoptable(client: AfnorClient, row: FlowRow): Promise<KnownFlow | null> {
    const flows = await findFlowsByTrackingId(client, row.tracking_id, this.callOptions());
    return flows.find((f) => (f.trackingId === null || f.trackingId === row.tracking_id) && f.ackStatus !== 'Error') ?? null;
  }

  /**
   * The platform named the flow (its 202, or a search that found it): recorded with the audit entry of the deposit;
   * a flow found already acknowledged is settled at once.
   */
  private async accepted(row: FlowRow, doc: StoredDocument, flow: KnownFlow, info: FlowInfo): Promise<void> {
    const settled = flow.ackStatus !== 'Pending';
    await this.deps.db.transaction().execute(async (trx) => {
      await this.update(
        row,
        {
          state: 'submitted',
          uncertain: 0,
          flow_id: flow.flowId,
          ack_status: 'Pending',
          submitted_at: flow.submittedAt ?? this.now().toISOString(),
          polls: 0,
          next_attempt_at: at(this.context, this.delays.ackPollMs[0] ?? 5_000),
          last_error: '',
        },
        { db: trx, keepLease: settled },
      );
      await appendAudit(trx, doc.organization_id, 'einvoice_send', {
        document: documentOf(doc),
        submission: { platform: PLATFORM, reference: flow.flowId, files: [{ name: info.name, sha256: info.sha256 }] },
      });
    });
    if (settled) await this.acknowledged(row, doc, flow);
  }

  /** A flow submitted earlier: its acknowledgement read until it is Ok or Error. */
  private async readAcknowledgement(row: FlowRow): Promise<void> {
    const doc = await findDocument(this.deps.db, { organizationId: row.organization_id, id: row.document_id });
    const polls = row.polls + 1;
    const later = (reason: string, retryAfterSeconds: number | null = null) => {
      const list = this.delays.ackPollMs;
      const wait =
        retryAfterSeconds !== null ? delayOf(this.context, 1, retryAfterSeconds) : (list[Math.min(polls, list.length - 1)] ?? 60_000);
      return this.update(row, { polls, next_attempt_at: at(this.context, wait), last_error: reason });
    };
    if (!doc || !row.flow_id)
      return this.update(row, { state: 'to_resend', next_attempt_at: null, last_error: 'le document n’existe plus' });
    let flow: KnownFlow;
    try {
      const client = new AfnorClient(await afnorConnectionOf(this.deps, row.organization_id));
      flow = await getFlow(client, row.flow_id, this.callOptions());
      if (flow.ackStatus === 'Error' && flow.details.some((d) => d.reasonCode === 'AlreadyExistingFlow')) {
        // Refused as a duplicate: the flow the platform kept for this trackingId is the document's.
        const kept = await this.adoptable(client, row);
        if (kept && kept.flowId !== row.flow_id) flow = kept;
      }
    } catch (error) {
      // The flow is on the platform whatever happens here: only its acknowledgement is late, read again later.
      if (error instanceof AppError) return later(messageOf(error));
      if (!(error instanceof AfnorError)) throw error;
      if (error.failure === 'aborted') return this.update(row, { next_attempt_at: this.now().toISOString() });
      return later(error.message, error.retryAfterSeconds);
    }
    if (flow.ackStatus === 'Pending') return later('');
    await this.acknowledged(row, doc, flow);
  }

  /** Ok: « Déposée » in the lifecycle, with the flow. Error: refused, with the platform's reasons. */
  private async acknowledged(row: FlowRow, doc: StoredDocument, flow: KnownFlow): Promise<void> {
    const reasons = JSON.stringify(flow.details.map(rawReason));
    if (flow.ackStatus === 'Error') {
      await this.update(row, { state: 'error', ack_status: 'Error', flow_id: flow.flowId, reasons, next_attempt_at: null, last_error: '' });
      return;
    }
    await this.deps.db.transaction().execute(async (trx) => {
      await this.update(
        row,
        {
          state: 'acknowledged',
          ack_status: 'Ok',
          flow_id: flow.flowId,
          reasons,
          acknowledged_at: this.now().toISOString(),
          next_attempt_at: null,
          last_error: '',
        },
        { db: trx },
      );
      // The day it was deposited, never before the invoice's own date (a platform's clock may be off).
      const day = parisDateOf(flow.submittedAt ?? row.submitted_at ?? this.now().toISOString());
      try {
        await appendStatus(trx, doc, {
          status: 'deposited',
          date: day < doc.date ? doc.date : day,
          reason: '',
          source: 'platform',
          platformUpdateId: `flow:${flow.flowId}`,
        });
      } catch (error) {
        // Already Déposée (declared by hand), or closed: the history stands as it is; the flow is still recorded.
        if (!(error instanceof AppError)) throw error;
        logger.info({ event: 'einvoice_flow_deposited_not_recorded', flow: row.id, reason: error.message });
      }
    });
  }
}

const rawReason = (d: AckDetail) => ({ code: d.reasonCode, message: d.reasonMessage, item: d.item, level: d.level });

const messageOf = (error: AppError) => (Array.isArray(error.messages) ? error.messages.join(' ; ') : error.messages);
