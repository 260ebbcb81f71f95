/** Statements as banks write them, for the tests and the bank bench. */

export type GeneratedEntry = {
  date: string;
  /** Signed decimal text: '120.00' a credit, '-45.50' a debit. */
  amount: string;
  label: string;
  counterparty?: string;
  reference?: string;
  bankId?: string;
  status?: 'BOOK' | 'PDNG';
};

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Decimal text to cents and back, for the balances (exact on two decimals). */
const cents = (amount: string) => Math.round(Number(amount) * 100);
const balance = (code: 'OPBD' | 'CLBD', amountCents: number, date: string) => `      <Bal>
        <Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp>
        <Amt Ccy="EUR">${(Math.abs(amountCents) / 100).toFixed(2)}</Amt>
        <CdtDbtInd>${amountCents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        <Dt><Dt>${date}</Dt></Dt>
      </Bal>`;

/**
 * An ISO 20022 camt.053.001.02 statement of one account; with `opening`, the opening (OPBD) and closing (CLBD) booked
 * balances it implies, the closing one dated by the last booked entry (or `closingDate`).
 */
export function camt053(
  iban: string,
  entries: GeneratedEntry[],
  version = '001.02',
  balances?: { opening: string; openingDate: string; closingDate?: string },
): string {
  const ntry = entries
    .map((e, i) => {
      const credit = !e.amount.startsWith('-');
      const amount = e.amount.replace(/^-/, '');
      const party = credit ? 'Dbtr' : 'Cdtr';
      return `      <Ntry>
        <Amt Ccy="EUR">${amount}</Amt>
        <CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>
        <Sts>${e.status ?? 'BOOK'}</Sts>
        <BookgDt><Dt>${e.date}</Dt></BookgDt>
        <ValDt><Dt>${e.date}</Dt></ValDt>
        <AcctSvcrRef>${xmlText(e.bankId ?? `REF${String(i + 1).padStart(8, '0')}`)}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${credit ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>${xmlText(e.reference ?? 'NOTPROVIDED')}</EndToEndId></Refs>
          <RltdPties><${party}><Nm>${xmlText(e.counterparty ?? '')}</Nm></${party}></RltdPties>
          <RmtInf><Ustrd>${xmlText(e.label)}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.${version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>STMT-TEST</MsgId><CreDtTm>2026-11-28T20:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>STMT-1</Id>
      <CreDtTm>2026-11-28T20:00:00</CreDtTm>
      <Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>
${balances ? balancesOf(entries, balances) : ''}
${ntry}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

function balancesOf(entries: GeneratedEntry[], b: { opening: string; openingDate: string; closingDate?: string }) {
  const booked = entries.filter((e) => (e.status ?? 'BOOK') === 'BOOK');
  const closing = booked.reduce((sum, e) => sum + cents(e.amount), cents(b.opening));
  const last =
    b.closingDate ??
    booked
      .map((e) => e.date)
      .sort()
      .at(-1) ??
    b.openingDate;
  return `${balance('OPBD', cents(b.opening), b.openingDate)}\n${balance('CLBD', closing, last)}`;
}

export const base64 = (text: string, encoding: BufferEncoding = 'utf8') => Buffer.from(text, encoding).toString('base64');
