import crypto from 'node:crypto';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { AppError, fail } from '../errors';
import { logger } from '../logger';
import { plural, pluralWord } from '../../shared/french';
import { LIFECYCLE_STATUSES, statusOfCode } from '../../shared/einvoice-lifecycle';
import { type Inbox, RECEIVED_PROBLEMS, RECEIVED_STATES, type ReceivedState, type SyncReport } from '../../shared/schemas/einvoice-inbox';
import {
  advanceInbox,
  claimInbox,
  findInbox,
  insertReceivedFlow,
  isFlowReceived,
  listReceivedFlows,
  organizationsReceivingFlows,
  type ReceivedFlowRow,
  releaseInbox,
} from '../db/queries/einvoice-inbox';
import { AfnorClient } from '../einvoice/afnor/client';
import { AfnorError } from '../einvoice/afnor/errors';
import { type IncomingFlow, INCOMING_FLOW_TYPES, isReportFlow, searchIncomingFlows } from '../einvoice/afnor/incoming';
import { afnorConnectionOf, getEinvoicingSettings } from './einvoicing-settings';
import { type FlowOutcome, type InboxFlowContext, receiveLifecycleMessage, receiveSupplierInvoice } from './einvoice-inbox-flow';
import { receiveReportStatus } from './ereporting-status';

/**
 * Incoming flows from the Plateforme Agréée (XP Z12-013 Flow Service): supplier invoices become expenses, lifecycle
 * messages go on the history of the invoice they name. Polling is the source of truth; the scheduler runs it, and
 * « Synchroniser » (POST /api/einvoicing/sync) runs it at once.
 *
 * Never a flow skipped nor handled twice, across restarts and processes:
 * - one process at a time searches for an organisation (a lease on its cursor row, lapsing after a crash);
 * - the search asks for the flows updated after the cursor minus a margin (`OVERLAP_MS`: a platform's updates may be
 *   committed out of order), so windows overlap on purpose, and a flow already recorded is passed over;
 * - each flow's record, its effect (the expense, the statuses) and the cursor's move to its `updatedAt` commit in one
 *   transaction, in the order of `updatedAt` (the order the API's date pagination pages in): a crash leaves the cursor
 *   on the last flow handled, never past one that was not;
 * - a failure to reach the platform, or an answer it should not have given, stops the search where it is: the cursor
 *   stays, the reason is kept and shown, and the next search starts there again.
 */

/** How far before its cursor a search starts again: flows updated in the margin are seen twice, recorded once. */
export const OVERLAP_MS = 5 * 60_000;
/** How long a search holds its organisation: past any run, so only a crash lets it lapse. */
const LEASE_MS = 10 * 60_000;
/** Pages of one search (100 flows each): more waits for the next run, from where this one stopped. */
const MAX_PAGES = 20;

/** Thrown in a flow's transaction when the search was taken over or the flow recorded by another: it rolls back. */
class NotMine extends Error {}

export interface InboxDeps {
  db: Db;
  env: Env;
}

export interface InboxOptions {
  now?: () => Date;
  timeoutMs?: number;
}

/** Each search its own holder: two in one process (the scheduler and a click) exclude each other as two processes do. */
const newHolder = () => `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;

const emptyReport = (): SyncReport => ({ invoices: 0, statuses: 0, errors: 0, duplicates: 0 });

function count(report: SyncReport, state: ReceivedState): void {
  if (state === 'imported') report.invoices++;
  else if (state === 'applied') report.statuses++;
  else if (state === 'duplicate') report.duplicates++;
  else if (RECEIVED_PROBLEMS.includes(state)) report.errors++;
}

/** The cursor minus the overlap: where the next search starts. */
const searchFrom = (cursor: string | null) => (cursor ? new Date(Date.parse(cursor) - OVERLAP_MS).toISOString() : null);

/**
 * One search of an organisation's incoming flows, under its lease: every page since the cursor, each flow handled in
 * its own transaction. Throws an AfnorError (the platform) or AppError (the settings) where it stopped.
 */
async function searchAndReceive(
  deps: InboxDeps,
  organizationId: number,
  holder: string,
  options: InboxOptions,
  report: SyncReport,
): Promise<void> {
  const now = options.now ?? (() => new Date());
  const client = new AfnorClient(await afnorConnectionOf(deps, organizationId));
  const context: InboxFlowContext = { db: deps.db, dataDir: deps.env.dataDir, organizationId, client, timeoutMs: options.timeoutMs };
  const callOptions = { timeoutMs: options.timeoutMs };
  const inbox = await findInbox(deps.db, { organizationId });
  const updatedAfter = searchFrom(inbox?.updated_after ?? null);
  const lease = () => ({ organizationId, holder, now: now().toISOString(), until: new Date(now().getTime() + LEASE_MS).toISOString() });

  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const found = await searchIncomingFlows(client, { updatedAfter, cursor }, callOptions);
    const flows = [...found.flows].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.flowId.localeCompare(b.flowId));
    for (const flow of flows) {
      const outcome = await receive(context, flow, lease, now);
      if (outcome) count(report, outcome.state);
    }
    // Flows passed over (already recorded, or not to act on yet) move the cursor too, once every one before is handled.
    const last = flows.at(-1);
    if (last) await deps.db.transaction().execute((trx) => advanceOrThrow(trx, { ...lease(), updatedAfter: last.updatedAt }));
    if (!found.nextCursor) return;
    cursor = found.nextCursor;
  }
}

async function advanceOrThrow(trx: Db, params: Parameters<typeof advanceInbox>[1]): Promise<void> {
  if (!(await advanceInbox(trx, params))) throw new NotMine('search taken over');
}

/**
 * One flow: passed over when already recorded (the overlap), or not to act on yet (a flow the platform is still
 * checking comes back with a new `updatedAt` once it has; one it refused never reaches us); otherwise handled and
 * recorded with the cursor's move. Null when passed over.
 */
async function receive(
  context: InboxFlowContext,
  flow: IncomingFlow,
  lease: () => Omit<Parameters<typeof advanceInbox>[1], 'updatedAfter'>,
  now: () => Date,
): Promise<FlowOutcome | null> {
  const { db, organizationId } = context;
  const report = isReportFlow(flow);
  // What the search's filters let through beyond what it asked for (our own invoices' flows…) is not ours to act on.
  if (!report && (flow.flowDirection !== 'In' || !(INCOMING_FLOW_TYPES as readonly string[]).includes(flow.flowType))) return null;
  // A report still being checked comes back with a new `updatedAt` once it is accepted or rejected.
  if (flow.ackStatus !== 'Ok' && !(report && flow.ackStatus === 'Error')) return null;
  if (await isFlowReceived(db, { organizationId, flowId: flow.flowId })) return null;
  const record = async (trx: Db, outcome: FlowOutcome) => {
    const inserted = await insertReceivedFlow(trx, {
      organization_id: organizationId,
      flow_id: flow.flowId,
      flow_type: flow.flowType,
      name: flow.name.slice(0, 255),
      state: outcome.state,
      reason: outcome.reason.slice(0, 2000),
      expense_id: outcome.expenseId ?? null,
      document_id: outcome.documentId ?? null,
      status_code: outcome.statusCode ?? null,
      flow_updated_at: flow.updatedAt,
      received_at: now().toISOString(),
    });
    if (!inserted) throw new NotMine('flow recorded by another process');
    await advanceOrThrow(trx, { ...lease(), updatedAfter: flow.updatedAt });
  };
  try {
    const outcome = report
      ? await receiveReportStatus(context, flow, record)
      : flow.flowType === 'SupplierInvoice'
        ? await receiveSupplierInvoice(context, flow, record)
        : await receiveLifecycleMessage(context, flow, record);
    logger.info({
      event: 'einvoice_flow_received',
      organization: organizationId,
      flow: flow.flowId,
      type: flow.flowType,
      state: outcome.state,
    });
    return outcome;
  } catch (error) {
    if (error instanceof NotMine && (await isFlowReceived(db, { organizationId, flowId: flow.flowId }))) return null;
    throw error;
  }
}

/**
 * One synchronisation of an organisation, its lease taken and given back with the outcome. `busy` when another
 * process (or request) is searching for it now.
 */
export async function syncOrganization(
  deps: InboxDeps,
  organizationId: number,
  options: InboxOptions = {},
): Promise<{ report: SyncReport; error: AppError | AfnorError | null } | 'busy'> {
  const now = options.now ?? (() => new Date());
  const holder = newHolder();
  const taken = await claimInbox(deps.db, {
    organizationId,
    holder,
    now: now().toISOString(),
    until: new Date(now().getTime() + LEASE_MS).toISOString(),
  });
  if (!taken) return 'busy';
  const report = emptyReport();
  let error: AppError | AfnorError | null = null;
  try {
    await searchAndReceive(deps, organizationId, holder, options, report);
  } catch (caught) {
    if (caught instanceof NotMine) {
      logger.info({ event: 'einvoice_inbox_taken_over', organization: organizationId });
      return { report, error: null };
    }
    if (!(caught instanceof AfnorError) && !(caught instanceof AppError)) {
      logger.error(`e-invoice inbox: organisation ${organizationId} stopped on an internal error`, caught);
      error = new AppError('INTERNAL_SERVER_ERROR', 'erreur interne du serveur pendant la réception');
    } else {
      error = caught;
      logger.info({ event: 'einvoice_inbox_stopped', organization: organizationId, reason: caught.message });
    }
  } finally {
    const reason = error ? stoppedMessage(error) : '';
    await releaseInbox(deps.db, { organizationId, holder, now: now().toISOString(), error: reason }).catch((e) =>
      logger.error(`e-invoice inbox: organisation ${organizationId} lease not released`, e),
    );
  }
  return { report, error };
}

const textOf = (error: AppError | AfnorError) =>
  error instanceof AppError ? (Array.isArray(error.messages) ? error.messages.join(' ; ') : error.messages) : error.message;

/** Why a synchronisation stopped, and that nothing after that point was lost. */
const stoppedMessage = (error: AppError | AfnorError) =>
  `Réception interrompue (${textOf(error)}) : les flux suivants seront repris à la prochaine synchronisation`;

/** The report in one French sentence. */
export function syncMessage(report: SyncReport): string {
  const parts = [
    `${plural(report.invoices, 'facture fournisseur', 'factures fournisseur')} ${pluralWord(report.invoices, 'reçue')}`,
    `${plural(report.statuses, 'statut')} ${pluralWord(report.statuses, 'enregistré')}`,
  ];
  if (report.duplicates > 0) parts.push(`${plural(report.duplicates, 'facture')} déjà ${pluralWord(report.duplicates, 'importée')}`);
  if (report.errors > 0) parts.push(`${plural(report.errors, 'flux', 'flux')} à examiner`);
  return parts.join(', ');
}

/** « Synchroniser »: the organisation's incoming flows now; 502 when the platform failed (what was done before stays). */
export async function syncNow(
  deps: InboxDeps,
  organizationId: number,
  options: InboxOptions = {},
): Promise<{ messages: string; data: SyncReport }> {
  const outcome = await syncOrganization(deps, organizationId, options);
  if (outcome === 'busy') fail('CONFLICT', 'Une synchronisation est déjà en cours : réessayez dans un instant');
  const { report, error } = outcome;
  if (error instanceof AppError) throw error;
  if (error) throw new AppError('BAD_GATEWAY', `${stoppedMessage(error)}. Déjà fait : ${syncMessage(report)}`);
  return { messages: syncMessage(report), data: report };
}

/** The scheduler's run: every organisation connected through the API, each on its own (one failing stops no other). */
export async function syncAllOrganizations(deps: InboxDeps, options: InboxOptions = {}): Promise<string> {
  const total = emptyReport();
  let failed = 0;
  for (const organizationId of await organizationsReceivingFlows(deps.db)) {
    const outcome = await syncOrganization(deps, organizationId, options);
    if (outcome === 'busy') continue;
    for (const key of Object.keys(total) as (keyof SyncReport)[]) total[key] += outcome.report[key];
    if (outcome.error) failed++;
  }
  const done = syncMessage(total);
  return failed > 0 ? `${done} ; ${plural(failed, 'organisation')} en échec (réessayé à la prochaine exécution)` : done;
}

function receivedOf(row: ReceivedFlowRow) {
  const state = (row.state in RECEIVED_STATES ? row.state : 'unreadable') as ReceivedState;
  const status = row.status_code === null ? undefined : statusOfCode(row.status_code);
  return {
    id: row.id,
    flow_id: row.flow_id,
    kind:
      row.flow_type === 'SupplierInvoice'
        ? ('invoice' as const)
        : isReportFlow({ flowDirection: 'Out', flowType: row.flow_type })
          ? ('report' as const)
          : ('status' as const),
    name: row.name,
    state,
    state_label: RECEIVED_STATES[state],
    reason: row.reason,
    expense_id: row.expense_id,
    document_id: row.document_id,
    document_number: row.document_number ?? null,
    document_type: row.document_type === 'invoice' || row.document_type === 'credit' ? row.document_type : null,
    status_code: row.status_code,
    status_label: status ? LIFECYCLE_STATUSES[status].label : null,
    received_at: row.received_at,
  };
}

/** What came in lately from the platform, and how the last synchronisation ended. */
export async function getInbox(db: Db, organizationId: number): Promise<Inbox> {
  const [inbox, rows, settings] = await Promise.all([
    findInbox(db, { organizationId }),
    listReceivedFlows(db, { organizationId, limit: 100 }),
    getEinvoicingSettings(db, organizationId),
  ]);
  return {
    connected: settings.mode === 'afnor',
    last_sync_at: inbox?.last_sync_at ?? null,
    last_error: inbox?.last_error ?? '',
    data: rows.map(receivedOf),
  };
}
