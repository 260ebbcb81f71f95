import type { Db } from '../db/connection';
import { lockKey } from '../db/dialect';
import { nowIso } from '../clock';
import { add, money, sub, toDecimalString, type Money } from '../../shared/money';
import { parisDateOf } from '../../shared/paris-date';
import {
  CLOSING_FORMAT,
  closingPayloadSchema,
  exportedClosingSchema,
  type AuditTotals,
  type ClosingPayload,
  type ClosingPeriod,
  type ClosingSummary,
  type ExportedClosing,
} from '../../shared/schemas/audit';
import {
  findClosing,
  insertClosing,
  lastSequenceBefore,
  listClosingPage,
  listClosings,
  listEntriesBetween,
  listIssuedDocuments,
  listPaymentIds,
  listUnsignedSeals,
  signSeal,
  type ClosingRow,
} from '../db/queries/audit-closings';
import { listLoggedOrganizations } from '../db/queries/audit';
import { fail } from '../errors';
import { logger } from '../logger';
import { parisToUtc } from './paris-time';
import { currentAuditKey, signatureValid } from './audit-key';

/** Running sums per currency, exact: sales (invoices less credit notes) and payments (less reversals). */
export class RunningTotals {
  private readonly byCurrency = new Map<string, { sales: Money; payments: Money }>();

  static from(list: AuditTotals): RunningTotals {
    const totals = new RunningTotals();
    for (const t of list) totals.byCurrency.set(t.currency, { sales: money(t.sales), payments: money(t.payments) });
    return totals;
  }

  private of(currency: string) {
    let sums = this.byCurrency.get(currency);
    if (!sums) {
      sums = { sales: money(0), payments: money(0) };
      this.byCurrency.set(currency, sums);
    }
    return sums;
  }

  /** Adds what an entry's content (its JSON text) moves: an invoice or credit note issued, a payment or its reversal. */
  addEntry(contentText: string): void {
    let content: { event?: unknown; document?: { type?: unknown; total?: unknown; currency?: unknown }; payment?: { amount?: unknown } };
    try {
      content = JSON.parse(contentText);
    } catch {
      return; // an unreadable content is verify's to report, entry by entry
    }
    const currency = typeof content.document?.currency === 'string' ? content.document.currency : '';
    const total = content.document?.total;
    if (content.event === 'issue' && typeof total === 'number') {
      const sums = this.of(currency);
      if (content.document?.type === 'invoice') sums.sales = add(sums.sales, total);
      else if (content.document?.type === 'credit') sums.sales = sub(sums.sales, total);
    }
    const amount = content.payment?.amount;
    if ((content.event === 'payment' || content.event === 'payment_reversal') && typeof amount === 'number') {
      const sums = this.of(currency);
      sums.payments = add(sums.payments, amount);
    }
  }

  /** Sorted by currency, amounts as exact decimal text: the form signed and compared. */
  list(): AuditTotals {
    return [...this.byCurrency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, sums]) => ({ currency, sales: toDecimalString(sums.sales), payments: toDecimalString(sums.payments) }));
  }

  /** These totals less `earlier` (a period's movement from two perpetual totals). */
  minus(earlier: AuditTotals): AuditTotals {
    const before = RunningTotals.from(earlier).byCurrency;
    return this.list().map((t) => {
      const from = before.get(t.currency);
      return {
        currency: t.currency,
        sales: toDecimalString(from ? sub(t.sales, from.sales) : t.sales),
        payments: toDecimalString(from ? sub(t.payments, from.payments) : t.payments),
      };
    });
  }
}

export const sameTotals = (a: AuditTotals, b: AuditTotals): boolean => {
  const strip = (l: AuditTotals) => JSON.stringify(l.filter((t) => !money(t.sales).eq(0) || !money(t.payments).eq(0)));
  return strip(a) === strip(b);
};

/** A closing row's payload, when it is signed by this server's key and reads; undefined otherwise. */
export function trustedPayload(row: ClosingRow): ClosingPayload | undefined {
  if (!row.signature || !signatureValid(currentAuditKey().publicKey, row.payload, row.signature)) return undefined;
  try {
    const parsed = closingPayloadSchema.safeParse(JSON.parse(row.payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The period that ended last before `now`, in Paris days: yesterday, last month, last year. */
export function lastEndedPeriod(period: Exclude<ClosingPeriod, 'legacy'>, now: Date): { start: string; end: string; next: string } {
  const [y = 1970, m = 1, d = 1] = parisDateOf(now).split('-').map(Number);
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  const day = (year: number, month: number, dayOfMonth: number) => new Date(Date.UTC(year, month - 1, dayOfMonth));
  if (period === 'day') return { start: iso(day(y, m, d - 1)), end: iso(day(y, m, d - 1)), next: iso(day(y, m, d)) };
  if (period === 'month') return { start: iso(day(y, m - 1, 1)), end: iso(day(y, m, 0)), next: iso(day(y, m, 1)) };
  return { start: iso(day(y - 1, 1, 1)), end: iso(day(y - 1, 12, 31)), next: iso(day(y, 1, 1)) };
}

/**
 * The perpetual totals through `through`: from the signed closing that ends nearest below it, plus the entries
 * after it, so that a daily closing reads a day of entries, not the whole chain.
 */
async function totalsThrough(db: Db, organizationId: number, trusted: ClosingPayload[], through: number) {
  const base = trusted.filter((c) => c.last_sequence <= through).sort((a, b) => b.last_sequence - a.last_sequence)[0];
  const totals = RunningTotals.from(base?.cumulative_totals ?? []);
  const rows = await listEntriesBetween(db, { organizationId, after: base?.last_sequence ?? 0, through });
  for (const row of rows) totals.addEntry(row.content);
  const last = rows.at(-1);
  return { totals, lastHash: last?.hash ?? base?.last_hash ?? '', lastAt: last?.created_at };
}

function signed(payload: ClosingPayload): { payload: string; signature: string } {
  const text = JSON.stringify(closingPayloadSchema.parse(payload));
  return { payload: text, signature: currentAuditKey().sign(text) };
}

/**
 * Closes the organisation's last ended period of `period` if it is not closed yet and has entries. Under the
 * closings' lock: two processes running the job at once number the closings without a gap or a duplicate.
 */
async function closePeriod(db: Db, organizationId: number, period: Exclude<ClosingPeriod, 'legacy'>, now: Date): Promise<boolean> {
  const { start, end, next } = lastEndedPeriod(period, now);
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, 'auditClosing', organizationId);
    const closings = await listClosings(trx, { organizationId });
    if (closings.some((c) => c.period === period && c.period_start === start)) return false;
    const last = closings.at(-1);
    // A seal still unsigned (the key was not at hand) must be signed first: the next closing chains to its signature.
    if (last && !last.signature) return false;
    const through = await lastSequenceBefore(trx, { organizationId, before: parisToUtc(next, '00:00').toISOString() });
    if (through === 0) return false;
    // Only the closings this one builds on have their signature checked (verify checks them all): the previous one of
    // its kind, whose totals start the period, and the one ending nearest below `through`, whose totals it continues.
    const previousRow = closings.filter((c) => c.period === period).at(-1);
    const baseRow = closings.filter((c) => c.last_sequence <= through).sort((a, b) => b.last_sequence - a.last_sequence)[0];
    const trusted: ClosingPayload[] = [];
    for (const row of [previousRow, baseRow]) {
      if (!row) continue;
      const payload = trustedPayload(row);
      if (!payload) throw new Error(`closing ${row.number} no longer carries a valid signature: not closing on top of it`);
      trusted.push(payload);
    }
    const { totals, lastHash } = await totalsThrough(trx, organizationId, trusted, through);
    const previousOfKind = previousRow ? trusted[0] : undefined;
    const first = Math.min((previousOfKind?.last_sequence ?? 0) + 1, through + 1);
    const before = previousOfKind ? previousOfKind.cumulative_totals : [];
    const number = (last?.number ?? 0) + 1;
    const closedAt = nowIso();
    const payload: ClosingPayload = {
      format: CLOSING_FORMAT,
      organization_id: organizationId,
      number,
      period,
      period_start: start,
      period_end: end,
      first_sequence: first,
      last_sequence: through,
      last_hash: lastHash,
      period_totals: totals.minus(before),
      cumulative_totals: totals.list(),
      previous_signature: last?.signature ?? '',
      closed_at: closedAt,
    };
    await insertClosing(trx, {
      organizationId,
      closing: { number, period, period_start: start, last_sequence: through, ...signed(payload), created_at: closedAt },
    });
    return true;
  });
}

/** The scheduler's job: every organisation's last ended day, month and year, each closed once (NF525 practice). */
export async function closeAuditPeriods(db: Db, now: Date): Promise<string> {
  let made = 0;
  let failed = 0;
  for (const organization of await listLoggedOrganizations(db)) {
    for (const period of ['day', 'month', 'year'] as const) {
      try {
        if (await closePeriod(db, organization.id, period, now)) made++;
      } catch (error) {
        failed++;
        logger.error(`audit closing (${period}) of organization ${organization.id} not made`, error);
      }
    }
  }
  const text = `${made} clôture${made > 1 ? 's' : ''} du journal`;
  return failed > 0 ? `${text}, ${failed} en échec` : text;
}

/**
 * Signs the seals migration 0055 left unsigned: the chain as it stands at the seal's boundary (hash, totals), and
 * what the log never recorded then (payments from before it existed), which verify's completeness check skips.
 * Called only by the run of the migrations that applied 0055: signing unsigned seals at any later start would let
 * someone with the database insert one over a chain they rewrote with plain SHA-256, and have it signed.
 */
export async function signUnsignedSeals(db: Db): Promise<number> {
  const seals = await listUnsignedSeals(db);
  for (const seal of seals) {
    if (seal.number !== 1) continue;
    const organizationId = seal.organization_id;
    await db.transaction().execute(async (trx) => {
      await lockKey(trx, 'auditClosing', organizationId);
      const rows = await listEntriesBetween(trx, { organizationId, after: 0, through: seal.last_sequence });
      const totals = new RunningTotals();
      const documentsLogged = new Set<number>();
      const paymentsLogged = new Set<number>();
      for (const row of rows) {
        totals.addEntry(row.content);
        const ids = loggedIds(row.content);
        if (ids.document !== undefined && ids.issue) documentsLogged.add(ids.document);
        if (ids.payment !== undefined) paymentsLogged.add(ids.payment);
      }
      const documents = (await listIssuedDocuments(trx, { organizationId })).map((d) => d.id).filter((id) => !documentsLogged.has(id));
      const payments = (await listPaymentIds(trx, { organizationId })).filter((id) => !paymentsLogged.has(id));
      const closedAt = nowIso();
      const payload: ClosingPayload = {
        format: CLOSING_FORMAT,
        organization_id: organizationId,
        number: 1,
        period: 'legacy',
        period_start: rows[0] ? parisDateOf(rows[0].created_at) : parisDateOf(closedAt),
        period_end: rows.at(-1) ? parisDateOf(rows.at(-1)?.created_at ?? closedAt) : parisDateOf(closedAt),
        first_sequence: 1,
        last_sequence: seal.last_sequence,
        last_hash: rows.at(-1)?.hash ?? '',
        period_totals: totals.list(),
        cumulative_totals: totals.list(),
        unlogged: { documents, payments_through: payments.length > 0 ? Math.max(...payments) : 0 },
        previous_signature: '',
        closed_at: closedAt,
      };
      await signSeal(trx, { organizationId, ...signed(payload) });
    });
  }
  return seals.length;
}

/** The document (of an issue) and the payment an entry names. */
export function loggedIds(contentText: string): { document?: number; issue: boolean; payment?: number } {
  try {
    const content = JSON.parse(contentText) as { event?: unknown; document?: { id?: unknown }; payment?: { id?: unknown } };
    return {
      document: typeof content.document?.id === 'number' ? content.document.id : undefined,
      issue: content.event === 'issue',
      payment: typeof content.payment?.id === 'number' ? content.payment.id : undefined,
    };
  } catch {
    return { issue: false };
  }
}

function summaryOf(row: ClosingRow): ClosingSummary {
  const payload = trustedPayload(row);
  return {
    number: row.number,
    period: closingPayloadSchema.shape.period.catch('legacy').parse(row.period),
    period_start: payload?.period_start ?? row.period_start,
    period_end: payload?.period_end ?? row.period_start,
    last_sequence: row.last_sequence,
    cumulative_totals: payload?.cumulative_totals ?? [],
    closed_at: payload?.closed_at ?? row.created_at,
  };
}

export async function getClosingPage(db: Db, organizationId: number, page: { page: number; per_page: number }) {
  const { total, rows } = await listClosingPage(db, { organizationId, offset: (page.page - 1) * page.per_page, limit: page.per_page });
  return { total, data: rows.map(summaryOf) };
}

/** A closing as a small signed file: its payload as signed, the public key and the signature. */
export async function exportClosing(db: Db, organizationId: number, number: number): Promise<ExportedClosing> {
  const row = await findClosing(db, { organizationId, number });
  if (!row) fail('NOT_FOUND', `Clôture n° ${number} introuvable`);
  if (!row.signature) fail('CONFLICT', 'Ce scellement n’a jamais été signé : lancez la vérification du journal');
  const closing = trustedPayload(row);
  if (!closing)
    fail('CONFLICT', `La clôture n° ${number} ne porte plus une signature valide de ce serveur : lancez la vérification du journal`);
  return { closing, public_key: currentAuditKey().publicKey, signature: row.signature };
}

/** The file's own check, before the database is compared with it: readable, signed by this server's key. */
export function readExportedClosing(text: string): { closing?: ExportedClosing; problem?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'le fichier n’est pas du JSON' };
  }
  const file = exportedClosingSchema.safeParse(parsed);
  if (!file.success) return { problem: 'le fichier n’est pas une clôture exportée par Facturier' };
  // The payload is signed as the server wrote it: the parsed object keeps that key order, so stringifying it gives it back.
  const text2 = JSON.stringify((parsed as { closing: unknown }).closing);
  if (!signatureValid(file.data.public_key, text2, file.data.signature))
    return { problem: 'la signature ne correspond pas au contenu du fichier (fichier modifié)' };
  if (file.data.public_key !== currentAuditKey().publicKey)
    return { problem: 'le fichier est signé par une autre clé que celle du journal de ce serveur (AUDIT_KEY ou DATA_DIR/audit.key)' };
  return { closing: file.data };
}
