import crypto from 'node:crypto';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { fail } from '../errors';
import { clock, nowIso } from '../clock';
import { logger } from '../logger';
import { AfnorClient } from '../einvoice/afnor/client';
import { AfnorError } from '../einvoice/afnor/errors';
import { type FlowInfo, getFlow, submitFlow } from '../einvoice/afnor/flows';
import { type Flux10Content, flux10Body, writeFlux10 } from '../einvoice/flux10';
import { flux10Valid, validateFlux10 } from '../einvoice/flux10-validate';
import { insertReport, type ReportRow, reportsOfPeriod, reportsOfYear, updateReport } from '../db/queries/ereporting';
import {
  b2cDailyTransactions,
  EREPORTING_FIRST_DAY_LABEL,
  type EreportingKind,
  frequencyOfRegime,
  periodRange,
  periodsOfYear,
  type ReportingPeriod,
  reportablePeriod,
  reportedAmount,
} from '../../shared/ereporting';
import { internationalAmount, internationalInvoices } from '../../shared/ereporting-international';
import { internationalPurchases, type PurchaseRecord, purchasesAmount } from '../../shared/ereporting-purchases';
import { paymentsAmount, servicePayments } from '../../shared/ereporting-payments';
import { reportReasonInFrench } from '../../shared/ereporting-statuses';
import { type Money, toNumber, toStoredUnits } from '../../shared/money';
import type { SaleDocument } from '../../shared/vat-return/sales';
import type { EreportingRow } from '../../shared/schemas/ereporting';
import { getOrganizationProfile } from './organization';
import { converter } from './report-currency';
import { saleDocuments } from './vat-return';
import { afnorConnectionOf, getEinvoicingSettings } from './einvoicing-settings';
import { purchasesOf } from './ereporting-purchases';

interface Deps {
  db: Db;
  env: Env;
}

async function frequencyOf(db: Db, organizationId: number) {
  return frequencyOfRegime((await getOrganizationProfile(db, organizationId)).vat_regime);
}

/** 10.3, 10.1 (sales, then purchases), then the payments of both (10.2, 10.4). */
const SHOWN_ORDER: readonly EreportingKind[] = ['transactions', 'international', 'purchases', 'payments'];

/** The short code of each kind in a report's id, and how the file is qualified for the platform. */
const ID_CODES: Record<EreportingKind, string> = { transactions: 'TRS', international: 'INT', purchases: 'ACH', payments: 'PAY' };
const NAMES: Record<EreportingKind, string> = {
  transactions: 'ventes aux particuliers',
  international: 'ventes internationales B2B',
  purchases: 'achats internationaux B2B',
  payments: 'encaissements de services',
};

type Organization = Awaited<ReturnType<typeof getOrganizationProfile>>;

const MISSING_VAT_NUMBER = 'Votre numéro de TVA intracommunautaire manque : renseignez-le dans Paramètres → Entreprise avant de déclarer';

/**
 * What a period's report of one kind holds, from its sales (read once per period for every kind) or, for the
 * purchases, its expenses; with how many operations it counts.
 */
function contentOf(
  kind: EreportingKind,
  documents: readonly SaleDocument[],
  expenses: readonly PurchaseRecord[],
  period: ReportingPeriod,
  org: Organization,
  siren: string,
): { content: Flux10Content; amount: Money; count: number; problems: string[] } {
  const vatNumber = org.vat_number.replace(/\s/g, '').toUpperCase();
  if (kind === 'international') {
    const { invoices, problems } = internationalInvoices(documents, period);
    if (invoices.length > 0 && !vatNumber) problems.unshift(MISSING_VAT_NUMBER);
    return {
      content: { kind, invoices, seller: { siren, vatNumber } },
      amount: internationalAmount(invoices),
      count: invoices.length,
      problems,
    };
  }
  if (kind === 'purchases') {
    const { purchases, problems } = internationalPurchases(expenses, period);
    // The buyer's VAT number goes with its SIREN (G2.33).
    if (purchases.length > 0 && !vatNumber) problems.unshift(MISSING_VAT_NUMBER);
    return {
      content: { kind, purchases, buyer: { siren, vatNumber } },
      amount: purchasesAmount(purchases),
      count: purchases.length,
      problems,
    };
  }
  if (kind === 'payments') {
    const payments = servicePayments(documents, { ...period, basis: org.vat_on_debits ? 'debits' : 'receipts' });
    const count = payments.invoices.reduce((n, i) => n + i.payments.length, 0) + payments.days.length;
    return { content: { kind, payments }, amount: paymentsAmount(payments), count, problems: [] };
  }
  const days = b2cDailyTransactions(documents, period);
  return { content: { kind, days }, amount: reportedAmount(days), count: days.reduce((n, d) => n + d.count, 0), problems: [] };
}

/** The period's sales as the VAT return reads them: issued in it, paid or credited in it. */
async function salesOf(db: Db, organizationId: number, period: ReportingPeriod) {
  const { rateOf } = await converter(db, organizationId);
  return saleDocuments(db, organizationId, period, rateOf);
}

const errorsOf = (row: ReportRow): string[] => JSON.parse(row.errors) as string[];
const lastSent = (rows: readonly ReportRow[]) => [...rows].reverse().find((r) => r.state === 'sent' && r.ack_status !== 'Error');

/** The report of a period as it would be sent now: an initial one, or a corrected one once one was accepted. */
async function buildReport(
  deps: Deps,
  organizationId: number,
  period: ReportingPeriod,
  kind: EreportingKind,
  previous: readonly ReportRow[],
  documents?: readonly SaleDocument[],
) {
  const [org, settings, sales, expenses] = await Promise.all([
    getOrganizationProfile(deps.db, organizationId),
    getEinvoicingSettings(deps.db, organizationId),
    kind === 'purchases' ? [] : (documents ?? salesOf(deps.db, organizationId, period)),
    kind === 'purchases' ? purchasesOf(deps.db, organizationId, period) : [],
  ]);
  const siren = org.siret.replace(/\D/g, '').slice(0, 9);
  const version = (previous.at(-1)?.version ?? 0) + 1;
  const typeCode: 'IN' | 'RE' = lastSent(previous) ? 'RE' : 'IN';
  const { content, amount, count, problems } = contentOf(kind, sales, expenses, period, org, siren);
  const xml = writeFlux10({
    id: `${siren}-${period.period}-${ID_CODES[kind]}-${version}`,
    name: `e-reporting ${period.period} ${NAMES[kind]}`,
    at: clock.now(),
    typeCode,
    platform: { matricule: settings.pa_matricule || '0000', name: `Plateforme agréée ${settings.pa_matricule}`.trim() },
    declarant: { siren, name: org.name },
    period,
    content,
  });
  // 10.2 names international B2B invoices; a payments report of private persons only is B2C.
  const processingRule: FlowInfo['processingRule'] =
    content.kind === 'transactions' || (content.kind === 'payments' && content.payments.invoices.length === 0) ? 'B2C' : 'B2BInt';
  return { xml, version, typeCode, amount, count, siren, problems, processingRule };
}

function statusOf(period: ReportingPeriod, rows: readonly ReportRow[], liveXml: string | null, today: string): EreportingRow['status'] {
  const last = rows.at(-1);
  if (!last) return period.to >= today ? 'open' : 'to_send';
  if (last.state === 'invalid') return 'invalid';
  if (last.state === 'failed') return 'failed';
  if (last.ack_status === 'Error') return 'rejected';
  if (liveXml !== null && flux10Body(liveXml) !== flux10Body(last.xml)) return 'changed';
  return last.ack_status === 'Ok' ? 'accepted' : 'pending';
}

/**
 * GET /api/ereporting: the year's periods (the regime's), and for each the four reports — 10.3 B2C sales, 10.1
 * international B2B sales and purchases, 10.2/10.4 payments of services — their amount, how many operations, and
 * where each stands. The errors shown are what stops the report now, else those the last one met.
 */
export async function listReports(deps: Deps, organizationId: number, year: number | undefined) {
  const today = nowIso().slice(0, 10);
  const shown = year ?? Number(today.slice(0, 4));
  const frequency = await frequencyOf(deps.db, organizationId);
  const rows = await reportsOfYear(deps.db, { organizationId, year: shown });
  const data: EreportingRow[] = [];
  // Periods not yet begun are left out, and those before the reform: nothing can be reported for them.
  for (const period of periodsOfYear(shown, frequency).filter((p) => reportablePeriod(p) && p.from <= today)) {
    const documents = await salesOf(deps.db, organizationId, period);
    for (const kind of SHOWN_ORDER) {
      const mine = rows.filter((r) => r.period === period.period && r.kind === kind);
      const live = await buildReport(deps, organizationId, period, kind, mine, documents);
      const last = mine.at(-1);
      data.push({
        period: period.period,
        kind,
        from: period.from,
        to: period.to,
        status: statusOf(period, mine, live.xml, today),
        amount: toNumber(live.amount, 2),
        count: live.count,
        version: last?.version ?? null,
        type_code: last?.type_code ?? null,
        flow_id: last?.flow_id ?? null,
        ack_status: last?.ack_status ?? null,
        errors: live.problems.length > 0 ? live.problems : last ? errorsOf(last) : [],
        sent_at: last?.state === 'sent' ? last.updated_at : null,
      });
    }
  }
  // Latest period first; within it, the kinds in the order of the flux they fill.
  const order = (row: EreportingRow) => SHOWN_ORDER.indexOf(row.kind);
  data.sort((x, y) => (x.period === y.period ? order(x) - order(y) : y.period.localeCompare(x.period)));
  return { year: shown, frequency, data };
}

async function periodOf(db: Db, organizationId: number, period: string): Promise<ReportingPeriod> {
  const range = periodRange(period, await frequencyOf(db, organizationId));
  if (!range) fail('BAD_REQUEST', `Période ${period} : ce n’est pas une période de déclaration de votre régime de TVA`);
  if (!reportablePeriod(range))
    fail('BAD_REQUEST', `Période ${period} : avant le ${EREPORTING_FIRST_DAY_LABEL}, rien n’est à déclarer en e-reporting`);
  return range;
}

/** GET /api/ereporting/{period}/xml: the report as it would be sent now (the last one sent when nothing changed). */
export async function reportXml(deps: Deps, organizationId: number, period: string, kind: EreportingKind): Promise<string> {
  const range = await periodOf(deps.db, organizationId, period);
  const rows = await reportsOfPeriod(deps.db, { organizationId, period, kind });
  const live = await buildReport(deps, organizationId, range, kind, rows);
  const sent = lastSent(rows);
  return sent && flux10Body(sent.xml) === flux10Body(live.xml) ? sent.xml : live.xml;
}

const validationErrors = (result: Awaited<ReturnType<typeof validateFlux10>>) => [
  ...result.problems.map((p) => `Schéma Flux 10, ligne ${p.line} : ${p.message}`),
  ...result.asserts.filter((a) => a.flag === 'fatal').map((a) => a.message),
];

/**
 * POST /api/ereporting/{period}/transmit: the period's report, checked against the Flux 10 schema and schematron,
 * submitted as a flow to the platform. A report already sent and unchanged is not sent twice (its flow is answered);
 * sales changed since, or a report the platform rejected, go again as a corrected report (RE) with the next version.
 */
export async function transmitReport(deps: Deps, organizationId: number, period: string, kind: EreportingKind) {
  const range = await periodOf(deps.db, organizationId, period);
  const today = nowIso().slice(0, 10);
  if (range.to >= today) fail('CONFLICT', `La période ${period} n’est pas terminée : elle se déclare à partir du lendemain de sa fin`);
  const connection = await afnorConnectionOf(deps, organizationId);
  const rows = await reportsOfPeriod(deps.db, { organizationId, period, kind });
  const report = await buildReport(deps, organizationId, range, kind, rows);
  if (!/^\d{9}$/.test(report.siren)) fail('CONFLICT', 'Votre SIREN manque : renseignez-le dans Paramètres → Entreprise avant de déclarer');
  const sent = lastSent(rows);
  // Named by its period alone for the B2C sales (the first report there was), by period and kind otherwise.
  const what = kind === 'transactions' ? period : `${period} (${NAMES[kind]})`;
  if (sent && flux10Body(sent.xml) === flux10Body(report.xml))
    return {
      messages: `Déclaration ${what} déjà transmise (flux ${sent.flow_id}) : rien n’a changé depuis`,
      data: { flow_id: sent.flow_id, ack_status: sent.ack_status, version: sent.version, type_code: sent.type_code },
    };
  const now = nowIso();
  const trackingId = `ereporting-${crypto.randomUUID()}`;
  const base = {
    organization_id: organizationId,
    period,
    kind,
    version: report.version,
    type_code: report.typeCode,
    tracking_id: trackingId,
    xml: report.xml,
    amount: toStoredUnits(report.amount),
    flow_id: null,
    ack_status: null,
    created_at: now,
    updated_at: now,
  };
  const validation = report.problems.length > 0 ? null : await validateFlux10(report.xml);
  if (validation === null || !flux10Valid(validation)) {
    const errors = validation === null ? report.problems : validationErrors(validation);
    await insertReport(deps.db, { ...base, state: 'invalid', errors: JSON.stringify(errors) });
    logger.info({ event: 'ereporting_invalid', organization: organizationId, period, kind, errors });
    fail('CONFLICT', [`La déclaration ${what} ne passe pas les contrôles Flux 10 : elle n’a pas été envoyée`, ...errors]);
  }
  const id = await insertReport(deps.db, { ...base, state: 'failed', errors: '[]' });
  const client = new AfnorClient(connection);
  const bytes = Buffer.from(report.xml, 'utf8');
  try {
    const accepted = await submitFlow(
      client,
      {
        trackingId,
        name: `ereporting-${period}-${kind}-v${report.version}.xml`,
        processingRule: report.processingRule,
        flowSyntax: 'FRR',
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
      },
      { name: `ereporting-${period}-${kind}-v${report.version}.xml`, contentType: 'application/xml', bytes },
    );
    const flow = await getFlow(client, accepted.flowId).catch(() => null);
    const ackStatus = flow?.ackStatus ?? 'Pending';
    const errors = (flow?.details ?? []).filter((d) => d.level === 'Error').map(reportReasonInFrench);
    await updateReport(deps.db, { id, state: 'sent', flowId: accepted.flowId, ackStatus, errors, now: nowIso() });
    const label = report.typeCode === 'RE' ? 'Déclaration rectificative' : 'Déclaration';
    return {
      messages:
        ackStatus === 'Error'
          ? `${label} ${what} refusée par la plateforme : ${errors.join(' ; ') || 'sans motif'}`
          : `${label} ${what} transmise (flux ${accepted.flowId})`,
      data: { flow_id: accepted.flowId, ack_status: ackStatus, version: report.version, type_code: report.typeCode },
    };
  } catch (error) {
    if (!(error instanceof AfnorError)) throw error;
    await updateReport(deps.db, { id, state: 'failed', flowId: null, ackStatus: null, errors: [error.message], now: nowIso() });
    fail('BAD_GATEWAY', `La déclaration ${what} n’a pas pu être transmise : ${error.message}`);
  }
}
