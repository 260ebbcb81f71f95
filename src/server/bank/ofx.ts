import { cleanText, decimalText, isoDateOf, type Statement, StatementError, type StatementLine } from './statement';

/**
 * OFX 1.x (SGML: closing tags optional) and 2.x (XML), as French banks export them: read by tags rather than by an XML
 * parser, since 1.x is not XML. Only the bank statement's transactions (STMTTRN) are read.
 */
function tag(block: string, name: string): string {
  // OFX 2.x is XML: a bank may wrap a name in a CDATA section (read as is, no entities inside).
  const cdata = new RegExp(`<${name}>\\s*<!\\[CDATA\\[([\\s\\S]*?)\\]\\]>`, 'i').exec(block);
  if (cdata) return cleanText(cdata[1] ?? '');
  const m = new RegExp(`<${name}>([^<\\r\\n]*)`, 'i').exec(block);
  return cleanText((m?.[1] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
}

/** The line number of an offset, for the reasons of a refused transaction. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export function isOfx(text: string): boolean {
  return /OFXHEADER|<OFX>/i.test(text.slice(0, 2000));
}

export function readOfx(text: string): Statement {
  if (!/<STMTTRNRS>|<BANKTRANLIST>/i.test(text))
    throw new StatementError('Ce fichier OFX ne contient pas de relevé bancaire (BANKTRANLIST)');
  const currency = tag(text, 'CURDEF') || 'EUR';
  const account = /<BANKACCTFROM>([\s\S]*?)(<\/BANKACCTFROM>|<BANKTRANLIST>)/i.exec(text)?.[1] ?? '';
  const lines: StatementLine[] = [];
  const rejected: Statement['rejected'] = [];
  const blocks = /<STMTTRN>([\s\S]*?)(?=<\/STMTTRN>|<STMTTRN>|<\/BANKTRANLIST>)/gi;
  for (let m = blocks.exec(text); m; m = blocks.exec(text)) {
    const block = m[1] ?? '';
    const line = lineAt(text, m.index);
    const amount = decimalText(tag(block, 'TRNAMT'));
    const date = isoDateOf(tag(block, 'DTPOSTED'));
    if (!amount) rejected.push({ line, reason: 'Montant (TRNAMT) illisible' });
    else if (!date) rejected.push({ line, reason: 'Date (DTPOSTED) illisible' });
    else {
      const name = tag(block, 'NAME');
      const memo = tag(block, 'MEMO');
      lines.push({
        line,
        date,
        valueDate: isoDateOf(tag(block, 'DTUSER')),
        amount,
        currency: tag(block, 'CURRENCY') || currency,
        label: cleanText([name, memo].filter(Boolean).join(' ')) || 'Opération',
        counterparty: tag(block, 'PAYEE') || '',
        reference: tag(block, 'REFNUM') || checkNumber(tag(block, 'CHECKNUM')),
        bankId: tag(block, 'FITID'),
      });
    }
  }
  const bank = tag(account, 'BANKID');
  const number = tag(account, 'ACCTID');
  return {
    format: 'ofx',
    account: bank && number ? { bank, branch: tag(account, 'BRANCHID'), number } : null,
    lines,
    rejected,
    csvMapping: null,
    balance: ledgerBalance(text),
  };
}

/** Some banks write a check number of 0 on every line that is no check: nothing to match on. */
const checkNumber = (text: string) => (/^0*$/.test(text) ? '' : text);

/** The booked balance the bank states (LEDGERBAL), on the date it gives. */
function ledgerBalance(text: string): Statement['balance'] {
  const block = /<LEDGERBAL>([\s\S]*?)(<\/LEDGERBAL>|<AVAILBAL>|<\/STMTRS>)/i.exec(text)?.[1];
  if (!block) return null;
  const amount = decimalText(tag(block, 'BALAMT'));
  const date = isoDateOf(tag(block, 'DTASOF'));
  return amount && date ? { date, amount } : null;
}
