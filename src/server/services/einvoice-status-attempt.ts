import crypto from 'node:crypto';
import { AppError } from '../errors';
import { logger } from '../logger';
import { updateClaimedFlow } from '../db/queries/einvoice-flows';
import type { StatusFlowRow } from '../db/queries/einvoice-status-flows';
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
import { cdarValid, validateCdar } from '../einvoice/cdar-validate';
import { afnorConnectionOf } from './einvoicing-settings';
import type { AttemptContext } from './einvoice-flow-attempt';
import { at, delayOf, retryOrGiveUp, submissionFailure } from './einvoice-flow-policy';

/** Thrown in a write whose claim another process took over: nothing of the stale attempt is kept. */
class ClaimLost extends Error {}

/**
 * One attempt on a lifecycle message the outbox claimed: its submission as a CDAR flow (the platform asked first by
 * trackingId when an earlier attempt's outcome is unknown), or the reading of its acknowledgement. The rules of
 * retrying, giving up and knowing whether a file may have left are the invoices' (services/einvoice-flow-policy.ts).
 * A message is checked against the CDAR schema and BR-FR-CDV before it first leaves: one that fails is never sent.
 */
export class StatusFlowAttempt {
  constructor(private readonly context: AttemptContext) {}

  async run(row: StatusFlowRow): Promise<void> {
    try {
      if (row.state === 'submitted') await this.readAcknowledgement(row);
      else await this.submit(row);
    } catch (error) {
      if (error instanceof ClaimLost) return;
      logger.error(`e-invoice outbox: lifecycle message ${row.id} failed unexpectedly`, error);
      const reason = 'erreur interne du serveur pendant l’envoi';
      const changes =
        row.state === 'submitted'
          ? { next_attempt_at: at(this.context, this.context.delays.retryBaseMs), last_error: reason }
          : retryOrGiveUp(this.context, row, reason, null);
      await this.update(row, changes).catch((e) => logger.error(`e-invoice outbox: lifecycle message ${row.id} not released`, e));
    }
  }

  private async update(row: StatusFlowRow, changes: Parameters<typeof updateClaimedFlow>[1]['changes'], keepLease = false) {
    const ok = await updateClaimedFlow(this.context.deps.db, {
      id: row.id,
      holder: this.context.holder,
      now: this.context.now().toISOString(),
      changes,
      keepLease,
      table: 'einvoice_status_flows',
    });
    if (!ok) throw new ClaimLost();
  }

  private callOptions(requestId?: string) {
    return { requestId, signal: this.context.signal(), timeoutMs: this.context.timeoutMs };
  }

  private async submit(row: StatusFlowRow): Promise<void> {
    let client: AfnorClient;
    try {
      client = new AfnorClient(await afnorConnectionOf(this.context.deps, row.organization_id));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const message = Array.isArray(error.messages) ? error.messages.join(' ; ') : error.messages;
      return this.update(row, { state: 'to_resend', next_attempt_at: null, last_error: message });
    }
    const bytes = Buffer.from(row.xml, 'utf8');
    if (row.attempts === 0 && row.uncertain === 0) {
      const checked = await validateCdar(row.xml);
      if (!cdarValid(checked)) {
        const rules = [...checked.problems.map((p) => p.message), ...checked.asserts.filter((a) => a.flag === 'fatal').map((a) => a.rule)];
        logger.error(`e-invoice outbox: lifecycle message ${row.id} breaks ${rules.join(', ')}`);
        return this.update(row, {
          state: 'error',
          ack_status: 'Error',
          next_attempt_at: null,
          last_error: `Message non conforme, non envoyé (${rules.slice(0, 3).join(', ')}) : signalez-le au support`,
        });
      }
    }
    const info: FlowInfo = {
      trackingId: row.tracking_id,
      name: row.name,
      processingRule: 'B2B',
      flowSyntax: 'CDAR',
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    };
    const file: FlowFile = { name: row.name, contentType: 'application/xml', bytes };
    let uncertain = row.uncertain === 1;
    try {
      if (uncertain) {
        const found = await this.adoptable(client, row);
        if (found) return await this.accepted(row, found);
        uncertain = false;
      }
      const requestId = crypto.randomUUID();
      // From here the message may leave: until the platform answers, its outcome is unknown.
      await this.update(row, { uncertain: 1, last_request_id: requestId, last_attempt_at: this.context.now().toISOString() }, true);
      const answer = await submitFlow(client, info, file, this.callOptions(requestId));
      await this.accepted(row, {
        flowId: answer.flowId,
        trackingId: row.tracking_id,
        ackStatus: 'Pending',
        details: [],
        submittedAt: answer.submittedAt,
        updatedAt: null,
      });
    } catch (error) {
      if (!(error instanceof AfnorError)) throw error;
      if (error.platformError?.errorCode === 'AlreadyExistingFlow') {
        const found = await this.adoptable(client, row).catch(() => null);
        if (found) return await this.accepted(row, found);
      }
      logger.info({ event: 'einvoice_status_attempt_failed', message: row.id, failure: error.failure, status: error.status });
      await this.update(row, submissionFailure(this.context, row, error, uncertain));
    }
  }

  private async adoptable(client: AfnorClient, row: StatusFlowRow): Promise<KnownFlow | null> {
    const flows = await findFlowsByTrackingId(client, row.tracking_id, this.callOptions());
    return flows.find((f) => (f.trackingId === null || f.trackingId === row.tracking_id) && f.ackStatus !== 'Error') ?? null;
  }

  private async accepted(row: StatusFlowRow, flow: KnownFlow): Promise<void> {
    const settled = flow.ackStatus !== 'Pending';
    await this.update(
      row,
      {
        state: 'submitted',
        uncertain: 0,
        flow_id: flow.flowId,
        ack_status: 'Pending',
        submitted_at: flow.submittedAt ?? this.context.now().toISOString(),
        polls: 0,
        next_attempt_at: at(this.context, this.context.delays.ackPollMs[0] ?? 5_000),
        last_error: '',
      },
      settled,
    );
    if (settled) await this.acknowledged(row, flow);
  }

  private async readAcknowledgement(row: StatusFlowRow): Promise<void> {
    const polls = row.polls + 1;
    const later = (reason: string, retryAfterSeconds: number | null = null) => {
      const list = this.context.delays.ackPollMs;
      const wait =
        retryAfterSeconds !== null ? delayOf(this.context, 1, retryAfterSeconds) : (list[Math.min(polls, list.length - 1)] ?? 60_000);
      return this.update(row, { polls, next_attempt_at: at(this.context, wait), last_error: reason });
    };
    if (!row.flow_id) return this.update(row, { state: 'to_resend', next_attempt_at: null, last_error: 'flux inconnu' });
    let flow: KnownFlow;
    try {
      const client = new AfnorClient(await afnorConnectionOf(this.context.deps, row.organization_id));
      flow = await getFlow(client, row.flow_id, this.callOptions());
    } catch (error) {
      if (error instanceof AppError) return later(Array.isArray(error.messages) ? error.messages.join(' ; ') : error.messages);
      if (!(error instanceof AfnorError)) throw error;
      if (error.failure === 'aborted') return this.update(row, { next_attempt_at: this.context.now().toISOString() });
      return later(error.message, error.retryAfterSeconds);
    }
    if (flow.ackStatus === 'Pending') return later('');
    await this.acknowledged(row, flow);
  }

  private async acknowledged(row: StatusFlowRow, flow: KnownFlow): Promise<void> {
    const reasons = JSON.stringify(flow.details.map(rawReason));
    const ok = flow.ackStatus === 'Ok';
    await this.update(row, {
      state: ok ? 'acknowledged' : 'error',
      ack_status: flow.ackStatus,
      flow_id: flow.flowId,
      reasons,
      acknowledged_at: ok ? this.context.now().toISOString() : null,
      next_attempt_at: null,
      last_error: '',
    });
  }
}

const rawReason = (d: AckDetail) => ({ code: d.reasonCode, message: d.reasonMessage, item: d.item, level: d.level });
