import { cleanText, decimalText, isoDateOf, type Statement, type StatementLine } from './statement';

export const isQif = (text: string) => /^\s*!Type:(Bank|CCard|Cash)/im.test(text.slice(0, 500));

/** QIF: one field a line (D date, T amount, P payee, M memo, N number), `^` ends a transaction. Dates day first, as French banks write them. */
export function readQif(text: string): Statement {
  const lines: StatementLine[] = [];
  const rejected: Statement['rejected'] = [];
  let fields: Record<string, string> = {};
  let start = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const row = raw.trim();
    if (row === '' || row.startsWith('!')) return;
    if (row === '^') {
      const line = start || index + 1;
      const amount = decimalText(fields.T ?? fields.U ?? '');
      const date = isoDateOf((fields.D ?? '').replace(/'/g, '/'));
      if (!amount) rejected.push({ line, reason: 'Montant (T) illisible' });
      else if (!date) rejected.push({ line, reason: 'Date (D) illisible' });
      else
        lines.push({
          line,
          date,
          valueDate: null,
          amount,
          currency: 'EUR',
          label: cleanText([fields.P, fields.M].filter(Boolean).join(' ')) || 'Opération',
          counterparty: cleanText(fields.P ?? ''),
          reference: cleanText(fields.N ?? ''),
          bankId: '',
        });
      fields = {};
      start = 0;
      return;
    }
    if (!start) start = index + 1;
    fields[row[0] ?? ''] = row.slice(1);
  });
  return { format: 'qif', account: null, lines, rejected, csvMapping: null, balance: null };
}
