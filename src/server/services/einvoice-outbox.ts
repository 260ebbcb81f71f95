import crypto from 'node:crypto';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { AppError } from '../errors';
import { logger } from '../logger';
import { pdfFileName } from '../../shared/document-types';
import { parisDateOf } from '../../shared/paris-date';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { claimFlow, dueFlowIds, findFlow, nextFlowDueAt, type FlowRow, updateClaimedFlow } from '../db/queries/einvoice-flows';
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

export interface FlowDelays {
  /** The first wait after a failed submission; doubled at each failure, up to `retryCapMs`, with jitter. */
  retryBaseMs: number;
  retryCapMs: number;
  /** Failed submissions before the outbox gives up: the submission is then « À renvoyer » (by hand). */
  maxAttempts: number;
  /** The waits between readings of a pending acknowledgement (the last one repeats). */
  ackPollMs: readonly number[];
  /** How often the outbox looks for work it was not told about (another process's issue, a lapsed lease). */
  idlePollMs: number;
  /** How long a claim holds a submission: past every timeout of one attempt, so only a crash lets it lapse. */
  leaseMs: number;
}

const MINUTE = 60_000;
export const FLOW_DELAYS: FlowDelays = {
  retryBaseMs: 30_000,
  retryCapMs: 60 * MINUTE,
  maxAttempts: 10,
  ackPollMs: [5_000, 15_000, 30_000, MINUTE, 2 * MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, 60 * MINUTE],
  idlePollMs: MINUTE,
  leaseMs: 5 * MINUTE,
};
/** A submission carries a file (up to 100 MB by the API): more time than a JSON call (AFNOR_TIMEOUT_MS). */
const SUBMIT_TIMEOUT_MS = 60_000;
/** A Retry-After is honoured, up to a day. */
const MAX_RETRY_AFTER_MS = 24 * 60 * MINUTE;
const BATCH = 10;

export interface FlowOutboxOptions {
  /** Run the background loop in this process (default: yes, except under NODE_ENV=test where tests drive it). */
  start?: boolean;
  /** The outbox's clock: tests move it instead of waiting. */
  now?: () => Date;
  /** Jitter source, in [0, 1). */
  random?: () => number;
  /** Every call to the platform ends after this (tests shorten it). */
  timeoutMs?: number;
  delays?: Partial<FlowDelays>;
}

const PLATFORM = 'API XP Z12-013';
const SYNTAX = { 'factur-x': 'Factur-X', cii: 'CII', ubl: 'UBL' } as const;

/** Thrown in a transaction whose claim another process took over: nothing of it commits. */
class ClaimLost extends Error {}

/** The outboxes of the running apps (one in production): a document just issued wakes each of them. */
const outboxes = new Set<FlowOutbox>();

/** Asks every running outbox to look for due submissions now (after an issue's commit). */
export function kickFlowOutboxes(): void {
  for (const outbox of outboxes) outbox.kick();
}

/**
 * The outbox of outgoing flows: submits the queued invoices and credit notes to the platform's Flow Service
 * (`POST /v1/flows`), then reads each flow's acknowledgement until it is Ok (« Déposée ») or Error.
 *
 * Failures are retried with backoff: a 429 or 503's Retry-After is honoured, anything transient waits exponentially
 * longer (with jitter) up to `maxAttempts`, after which the submission is « À renvoyer ». A refusal (4xx) is not
 * retried: its reasons are kept and shown in French. Nothing is recorded as submitted without the platform's answer
 * naming the flow.
 *
 * Never twice for one document: each submission is claimed by one process at a time (an atomic UPDATE with a lease),
 * and an attempt whose outcome is unknown (timeout, broken connection, garbage, crash) leaves the row `uncertain`, so
 * the next attempt first asks the platform for the document's trackingId and adopts the flow it finds.
 */
export class FlowOutbox {
  private readonly holder = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  readonly now: () => Date;
  private readonly random: () => number;
  private readonly delays: FlowDelays;
  private readonly timeoutMs: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private readonly inFlight = new Set<Promise<unknown>>();
  private abort = new AbortController();

  constructor(
    private readonly deps: FlowOutboxDeps,
    options: FlowOutboxOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.delays = { ...FLOW_DELAYS, ...options.delays };
    this.timeoutMs = options.timeoutMs;
  }

  /** Starts the background loop: what is due now (what waited while the server was down) is sent at once. */
  start(): void {
    this.stopped = false;
    outboxes.add(this);
    this.kick();
  }

  /** Several kicks during a run make one more run after it. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  private async loop(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (!this.stopped) {
      this.again = false;
      try {
        await this.runDue();
      } catch (error) {
        logger.error('e-invoice outbox: run failed (tried again at the next wake)', error);
      }
      if (this.again) continue;
      await this.scheduleNext();
      if (!this.again || this.stopped) break;
      clearTimeout(this.timer);
    }
  }

  /** Sleeps until the next submission falls due, or `idlePollMs` at most. */
  private async scheduleNext(): Promise<void> {
    let wait = this.delays.idlePollMs;
    try {
      const next = await nextFlowDueAt(this.deps.db);
      if (next) wait = Math.min(wait, Date.parse(next) - this.now().getTime());
    } catch (error) {
      logger.error('e-invoice outbox: next due time unknown', error);
    }
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.max(wait, 50));
    this.timer.unref();
  }

  /**
   * Stops the loop and ends the calls in flight at once (the server is stopping): their submissions are released,
   * `uncertain` where a file may have left, for the next process to check with the platform before sending again.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    outboxes.delete(this);
    clearTimeout(this.timer);
    this.abort.abort();
    await Promise.allSettled([this.running, ...this.inFlight]);
    this.abort = new AbortController();
  }

  private async track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  private claim(id: number): Promise<boolean> {
    const now = this.now();
    return claimFlow(this.deps.db, {
      id,
      holder: this.holder,
      now: now.toISOString(),
      until: new Date(now.getTime() + this.delays.leaseMs).toISOString(),
    });
  }

  /** Works through every submission due now, in claimed batches; answers how many it worked on. */
  async runDue(): Promise<number> {
    let worked = 0;
    for (let round = 0; round < 20; round++) {
      const ids = await dueFlowIds(this.deps.db, { now: this.now().toISOString(), limit: BATCH });
      const mine: number[] = [];
      for (const id of ids) if (await this.claim(id)) mine.push(id);
      if (mine.length === 0) break;
      await Promise.all(mine.map((id) => this.track(this.work(id))));
      worked += mine.length;
    }
    return worked;
  }

  /** One attempt now on one submission (« Transmettre »), unless another process holds it: then it is left to that one. */
  async attemptNow(id: number): Promise<void> {
    if (await this.claim(id)) await this.track(this.work(id));
  }

  private async work(id: number): Promise<void> {
    const row = await findFlow(this.deps.db, { id });
    if (!row) return;
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
          ? { next_attempt_at: this.at(this.delays.retryBaseMs), last_error: reason }
          : this.retryOrGiveUp(row, reason, null);
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

  private delayOf(attempt: number, retryAfterSeconds: number | null): number {
    if (retryAfterSeconds !== null) return Math.min(Math.max(retryAfterSeconds * 1000, 1000), MAX_RETRY_AFTER_MS);
    const full = Math.min(this.delays.retryCapMs, this.delays.retryBaseMs * 2 ** (attempt - 1));
    // Half fixed, half random: processes and organisations that failed together do not all come back together.
    return Math.round(full / 2 + (this.random() * full) / 2);
  }

  private at(ms: number): string {
    return new Date(this.now().getTime() + ms).toISOString();
  }

  /** A failed attempt: due again after the backoff, or « À renvoyer » once `maxAttempts` failed. */
  private retryOrGiveUp(row: FlowRow, reason: string, retryAfterSeconds: number | null) {
    const attempts = row.attempts + 1;
    if (attempts >= this.delays.maxAttempts) {
      return {
        state: 'to_resend',
        attempts,
        next_attempt_at: null,
        last_error: `toujours en échec après ${attempts} essais (${reason}) : renvoyez-la quand la plateforme répondra`,
      };
    }
    return { state: 'pending', attempts, next_attempt_at: this.at(this.delayOf(attempts, retryAfterSeconds)), last_error: reason };
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
    return { requestId, signal: this.abort.signal, timeoutMs: this.timeoutMs };
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
      const changes = this.submissionFailure(row, error, uncertain);
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

  /** How a failed submission is recorded: retried, refused (with its reasons), or left for the user. */
  private submissionFailure(row: FlowRow, error: AfnorError, uncertainBefore: boolean) {
    // A file may have reached the platform: a timeout, a broken connection, an unreadable or 5xx answer (but a 503:
    // the platform said it did not take it).
    const maybeSent =
      error.service === 'flow' &&
      (error.failure === 'timeout' ||
        error.failure === 'network' ||
        error.failure === 'aborted' ||
        error.failure === 'garbage' ||
        (error.failure === 'unavailable' && error.status !== 503));
    const uncertain = maybeSent || uncertainBefore ? 1 : 0;
    const reason = error.message;
    if (error.failure === 'aborted') {
      // The server is stopping: not a failure of the platform, due again at once for the next process.
      return { uncertain, next_attempt_at: this.now().toISOString(), last_error: reason };
    }
    if (error.failure === 'garbage') {
      return { uncertain, state: 'to_resend', next_attempt_at: null, last_error: `${reason} : rien n’est tenu pour déposé, renvoyez-la` };
    }
    if (error.failure === 'unauthorized' || error.failure === 'refused-target' || (error.failure === 'http' && error.status === 404)) {
      return {
        uncertain,
        state: 'to_resend',
        next_attempt_at: null,
        last_error: `${reason} (Paramètres → Facturation électronique), puis renvoyez-la`,
      };
    }
    if (error.failure === 'http') {
      // A refusal (400, 413, 422…): the same file would be refused again. Its code is the platform's reason.
      const code = error.platformError?.errorCode ?? `HTTP ${error.status}`;
      const message = error.platformError?.details || error.platformError?.errorMessage || reason;
      return {
        uncertain,
        state: 'error',
        ack_status: 'Error',
        next_attempt_at: null,
        attempts: row.attempts + 1,
        reasons: JSON.stringify([{ code, message, item: '', level: 'Error' }]),
        last_error: reason,
      };
    }
    return { uncertain, ...this.retryOrGiveUp(row, reason, error.retryAfterSeconds) };
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
          next_attempt_at: this.at(this.delays.ackPollMs[0] ?? 5_000),
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
      const wait = retryAfterSeconds !== null ? this.delayOf(1, retryAfterSeconds) : (list[Math.min(polls, list.length - 1)] ?? MINUTE);
      return this.update(row, { polls, next_attempt_at: this.at(wait), last_error: reason });
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
