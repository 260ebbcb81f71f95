import type { XmlDocument, XmlNode } from 'libxml2-wasm';
import { parseInvoice } from '../einvoice/xml-checks';
import { cleanText, decimalText, isoDateOf, type Statement, StatementError, type StatementFormat, type StatementLine } from './statement';

/** The three ISO 20022 cash-management reports: the day's statement, the intraday report, the notifications. */
const KINDS: Record<string, { format: StatementFormat; report: string }> = {
  'camt.053': { format: 'camt.053', report: 'BkToCstmrStmt/c:Stmt' },
  'camt.052': { format: 'camt.052', report: 'BkToCstmrAcctRpt/c:Rpt' },
  'camt.054': { format: 'camt.054', report: 'BkToCstmrDbtCdtNtfctn/c:Ntfctn' },
};

/** Which camt message a root namespace is (any version: urn:iso:std:iso:20022:tech:xsd:camt.053.001.02 … .13). */
export function camtKind(namespace: string) {
  const m = /^urn:iso:std:iso:20022:tech:xsd:(camt\.05[234])\.\d{3}\.\d{2}$/.exec(namespace);
  return m ? KINDS[m[1] ?? ''] : undefined;
}

function text(node: XmlNode, xpath: string, ns: Record<string, string>): string {
  return cleanText(node.get(xpath, ns)?.content ?? '');
}

function entryLine(entry: XmlNode, ns: Record<string, string>, currency: string): StatementLine | { line: number; reason: string } {
  const line = entry.line;
  // Up to version 08 the status is a code, from 09 a choice whose code is in Cd.
  const status = text(entry, 'c:Sts/c:Cd', ns) || text(entry, 'c:Sts', ns);
  if (status && status !== 'BOOK')
    return { line, reason: `Opération non comptabilisée (${status}) : elle sera importée avec le relevé qui la comptabilise` };
  const amountNode = entry.get('c:Amt', ns);
  const amount = decimalText(amountNode?.content ?? '');
  if (!amount) return { line, reason: 'Montant illisible' };
  const direction = text(entry, 'c:CdtDbtInd', ns);
  if (direction !== 'CRDT' && direction !== 'DBIT') return { line, reason: 'Sens (CRDT ou DBIT) absent' };
  const date = isoDateOf(text(entry, 'c:BookgDt/c:Dt', ns) || text(entry, 'c:BookgDt/c:DtTm', ns));
  if (!date) return { line, reason: 'Date de comptabilisation absente ou illisible' };
  const details = 'c:NtryDtls/c:TxDtls';
  // The party on the other side: the debtor of a credit, the creditor of a debit (up to 08 directly, from 09 in Pty).
  const side = direction === 'CRDT' ? 'Dbtr' : 'Cdtr';
  const counterparty =
    text(entry, `${details}/c:RltdPties/c:${side}/c:Nm`, ns) || text(entry, `${details}/c:RltdPties/c:${side}/c:Pty/c:Nm`, ns);
  const unstructured = entry
    .find(`${details}/c:RmtInf/c:Ustrd`, ns)
    .map((n) => cleanText(n.content))
    .join(' ');
  const structured = text(entry, `${details}/c:RmtInf/c:Strd/c:CdtrRefInf/c:Ref`, ns);
  const endToEnd = text(entry, `${details}/c:Refs/c:EndToEndId`, ns);
  const label = cleanText([text(entry, 'c:AddtlNtryInf', ns), unstructured].filter(Boolean).join(' ')) || counterparty || 'Opération';
  return {
    line,
    date,
    valueDate: isoDateOf(text(entry, 'c:ValDt/c:Dt', ns) || text(entry, 'c:ValDt/c:DtTm', ns)),
    amount: direction === 'DBIT' ? `-${amount.replace(/^-/, '')}` : amount.replace(/^-/, ''),
    currency: text(entry, 'c:Amt/@Ccy', ns) || currency,
    label,
    counterparty,
    reference: structured || (endToEnd && endToEnd !== 'NOTPROVIDED' ? endToEnd : ''),
    bankId: text(entry, 'c:AcctSvcrRef', ns),
  };
}

function readDocument(doc: XmlDocument): Statement {
  const namespace = doc.root.namespaceUri;
  const kind = camtKind(namespace);
  if (!kind) throw new StatementError('Ce XML n’est pas un relevé ISO 20022 (camt.052, camt.053 ou camt.054)');
  const ns = { c: namespace };
  const reports = doc.find(`/c:Document/c:${kind.report}`, ns);
  if (reports.length === 0) throw new StatementError(`Relevé ${kind.format} sans compte ni opération`);
  const ibans = new Set(reports.map((r) => text(r, 'c:Acct/c:Id/c:IBAN', ns)).filter(Boolean));
  if (ibans.size > 1)
    throw new StatementError(`Ce fichier couvre plusieurs comptes (${[...ibans].join(', ')}) : importez un relevé par compte`);
  const lines: StatementLine[] = [];
  const rejected: Statement['rejected'] = [];
  for (const report of reports) {
    const currency = text(report, 'c:Acct/c:Ccy', ns) || 'EUR';
    for (const entry of report.find('c:Ntry', ns)) {
      const read = entryLine(entry, ns, currency);
      if ('reason' in read) rejected.push(read);
      else lines.push(read);
    }
  }
  const iban = [...ibans][0];
  const other = reports.map((r) => text(r, 'c:Acct/c:Id/c:Othr/c:Id', ns)).find(Boolean);
  const account = iban ? { iban } : other ? { other } : null;
  return { format: kind.format, account, lines, rejected, csvMapping: null, balance: closingBalance(reports, ns) };
}

/**
 * The latest booked balance the reports state: closing booked (CLBD) on a statement, or on an intraday report the
 * interim booked (ITBD) or closing available (CLAV) one. What the bank says the account holds, to reconcile the books with.
 */
function closingBalance(reports: XmlNode[], ns: Record<string, string>): Statement['balance'] {
  let latest: Statement['balance'] = null;
  for (const report of reports)
    for (const node of report.find('c:Bal', ns)) {
      const code = text(node, 'c:Tp/c:CdOrPrtry/c:Cd', ns);
      if (code !== 'CLBD' && code !== 'ITBD' && code !== 'CLAV') continue;
      const amount = decimalText(text(node, 'c:Amt', ns));
      const date = isoDateOf(text(node, 'c:Dt/c:Dt', ns) || text(node, 'c:Dt/c:DtTm', ns));
      if (!amount || !date) continue;
      const signed = text(node, 'c:CdtDbtInd', ns) === 'DBIT' && !amount.startsWith('-') ? `-${amount}` : amount;
      // CLBD outranks the others on the same day: it is the day's final word.
      if (!latest || date > latest.date || (date === latest.date && code === 'CLBD')) latest = { date, amount: signed };
    }
  return latest;
}

/** Reads a camt.052/053/054 message with libxml2 (no DTD, no entities, no network). */
export async function readCamt(xml: string): Promise<Statement> {
  const parsed = await parseInvoice(xml);
  if ('problems' in parsed) {
    const first = parsed.problems[0];
    throw new StatementError(
      `Le fichier n’est pas un XML lisible${first && first.line > 0 ? ` (ligne ${first.line})` : ''} : ${first?.message ?? ''}`,
    );
  }
  try {
    return readDocument(parsed.doc);
  } finally {
    parsed.doc.dispose();
  }
}
