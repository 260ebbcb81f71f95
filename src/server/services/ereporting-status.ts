import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { logger } from '../logger';
import { EREPORTING_KIND_LABELS, type EreportingKind } from '../../shared/ereporting';
import { REPORT_ACK_LABELS, reportReasonInFrench } from '../../shared/ereporting-statuses';
import { findReportOfFlow, updateReport } from '../db/queries/ereporting';
import type { IncomingFlow } from '../einvoice/afnor/incoming';
import type { FlowOutcome, InboxFlowContext, RecordFlow } from './einvoice-inbox-flow';

/** The reasons of an acknowledgement in French: its errors (a rejection's), else its warnings. */
export function ackReasons(details: IncomingFlow['details']): string[] {
  const errors = details.filter((d) => d.level === 'Error');
  return (errors.length > 0 ? errors : details).map(reportReasonInFrench);
}

/**
 * The platform's outcome of one of the organisation's e-reporting flows, read by the incoming search once it is final
 * (Ok or Error): the report's acknowledgement and reasons change, with the flow's record, in one transaction. A flow
 * naming none of the organisation's reports is recorded « Statut non enregistré » with why (and logged) and changes
 * nothing.
 */
export async function receiveReportStatus(context: InboxFlowContext, flow: IncomingFlow, record: RecordFlow): Promise<FlowOutcome> {
  const { db, organizationId } = context;
  const label = REPORT_ACK_LABELS[flow.ackStatus];
  return db.transaction().execute(async (trx: Db) => {
    const report = await findReportOfFlow(trx, { organizationId, flowId: flow.flowId, trackingId: flow.trackingId });
    if (!report) {
      logger.info({ event: 'ereporting_status_unknown_report', organization: organizationId, flow: flow.flowId, ack: flow.ackStatus });
      const outcome: FlowOutcome = {
        state: 'not_applied',
        reason: `Aucune déclaration e-reporting de votre entreprise ne correspond au flux ${flow.flowId} : le statut « ${label} » n’a été enregistré nulle part`,
      };
      await record(trx, outcome);
      return outcome;
    }
    const reasons = flow.ackStatus === 'Error' ? ackReasons(flow.details) : [];
    await updateReport(trx, {
      id: report.id,
      state: 'sent',
      flowId: flow.flowId,
      ackStatus: flow.ackStatus,
      errors: reasons,
      now: nowIso(),
    });
    const what = `Déclaration ${report.period} (${EREPORTING_KIND_LABELS[report.kind as EreportingKind] ?? report.kind}), version ${report.version}`;
    const outcome: FlowOutcome = {
      state: 'applied',
      reason: reasons.length > 0 ? `${what} : ${label.toLowerCase()} — ${reasons.join(' ; ')}` : `${what} : ${label.toLowerCase()}`,
    };
    await record(trx, outcome);
    logger.info({
      event: 'ereporting_status',
      organization: organizationId,
      flow: flow.flowId,
      period: report.period,
      ack: flow.ackStatus,
    });
    return outcome;
  });
}
