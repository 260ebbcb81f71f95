import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStatement } from '../../src/server/bank/read-statement';

// Files written by others (tests/fixtures/bank/README.md names their source and licence): the ISO 20022 business
// examples and statements as banks export them, read as a user would drop them.
const FIXTURES = path.resolve('tests/fixtures/bank');

async function read(file: string) {
  const bytes = new Uint8Array(fs.readFileSync(path.join(FIXTURES, file)));
  const reading = await readStatement(bytes, path.basename(file), { mode: 'preview' });
  if (reading.ok !== true) throw new Error(reading.ok === false ? reading.message : 'CSV columns to confirm');
  return reading;
}

const essentials = (lines: { date: string; amount: string; currency: string; label: string; bankId: string }[]) =>
  lines.map((l) => [l.date, l.amount, l.currency, l.label, l.bankId]);

describe('the ISO 20022 business example messages (Standards Release 2013, 001.04)', () => {
  it('camt.053: the three booked entries with their sign, booking date, account servicer id and closing balance', async () => {
    const { statement, fingerprints } = await read('iso20022/business_sample_camt.053.001.04.xml');
    expect(statement.format).toBe('camt.053');
    // The account is named by the bank's own number, not an IBAN: the import checks it all the same.
    expect(statement.account).toEqual({ other: '50000000054910000003' });
    expect(essentials(statement.lines)).toEqual([
      ['2010-10-18', '105678.50', 'SEK', 'MUELLER', 'AAAASESS-FP-CN_98765/01'],
      ['2010-10-18', '-200000', 'SEK', 'Opération', 'AAAASESS-FP-ACCR-01'],
      ['2010-10-18', '30000', 'SEK', 'Opération', 'AAAASESS-FP-CONF-FX'],
    ]);
    expect(statement.lines[0]).toMatchObject({ counterparty: 'MUELLER', reference: 'MUELL/FINP/RA12345', valueDate: '2010-10-18' });
    expect(statement.rejected).toEqual([]);
    // CLBD 435 678,50 = OPBD 500 000 + 105 678,50 − 200 000 + 30 000.
    expect(statement.balance).toEqual({ date: '2010-10-18', amount: '435678.50' });
    expect(new Set(fingerprints).size).toBe(3);
  });

  it('camt.052: the booked entry of the intraday report, the pending one set aside with its reason', async () => {
    const { statement } = await read('iso20022/business_sample_camt.052.001.04.xml');
    expect(statement.format).toBe('camt.052');
    expect(essentials(statement.lines)).toEqual([['2010-10-18', '-200000', 'SEK', 'Opération', 'AAAASESS-FP-ACCR-01']]);
    expect(statement.rejected).toEqual([
      { line: 66, reason: 'Opération non comptabilisée (PDNG) : elle sera importée avec le relevé qui la comptabilise' },
    ]);
  });

  it('camt.054: the notified credit is the statement’s first entry, under its own servicer id', async () => {
    const { statement } = await read('iso20022/business_sample_camt.054.001.04.xml');
    expect(statement.format).toBe('camt.054');
    expect(essentials(statement.lines)).toEqual([['2010-10-18', '105678.50', 'SEK', 'MUELLER', 'AAAASESS-FP-CN-98765/01']]);
    expect(statement.balance).toBeNull();
  });
});

describe('OFX statements as banks export them', () => {
  it('OFX 1.02 in SGML on one line: each transaction, its FITID, the account and the ledger balance', async () => {
    const { statement } = await read('ofxparse/bank_medium.ofx');
    expect(statement.format).toBe('ofx');
    expect(statement.account).toEqual({ bank: '160000100', branch: '00', number: '12300 000012345678' });
    expect(essentials(statement.lines)).toEqual([
      ['2009-04-01', '-6.60', 'CAD', "MCDONALD'S #112 POS MERCHANDISE;MCDONALD'S #112", '0000123456782009040100001'],
      ['2009-04-02', '-316.67', 'CAD', "Joe's Bald Hairstyles MISCELLANEOUS PAYMENTS;Joe's Bald Hairstyles", '0000123456782009040200004'],
      ['2009-04-03', '-22.00', 'CAD', "CONNIE'S HAIR D POS MERCHANDISE;CONNIE'S HAIR D", '0000123456782009040300005'],
    ]);
    expect(statement.balance).toEqual({ date: '2009-05-23', amount: '382.34' });
  });

  it('OFX 1.02 in SGML, one tag a line: a credit and two debits, the check number as reference', async () => {
    const { statement } = await read('ofxparse/checking.ofx');
    expect(statement.lines.map((l) => [l.date, l.amount, l.bankId, l.reference])).toEqual([
      ['2011-03-31', '0.01', '0000486', ''],
      ['2011-04-05', '-34.51', '0000487', ''],
      ['2011-04-07', '-25.00', '0000488', '319'],
    ]);
    expect(statement.lines[2]?.label).toBe('RETURNED CHECK FEE, CHECK # 319 RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11');
    expect(statement.balance).toEqual({ date: '2013-05-25', amount: '100.99' });
  });

  it('OFX 2.00 in XML: a name and memo in CDATA sections are the label, not « Opération »', async () => {
    const { statement } = await read('ofxparse/suncorp.ofx');
    expect(statement.account).toEqual({ bank: 'SUNCORP', branch: '', number: '123456789' });
    expect(essentials(statement.lines)).toEqual([
      ['2013-12-15', '-16.85', 'AUD', 'EFTPOS WDL HANDYWAY ALDI STORE EFTPOS WDL HANDYWAY ALDI STORE GEELONG WEST VICAU', '1'],
    ]);
    // A check number of 0 is no check: nothing to match on.
    expect(statement.lines[0]?.reference).toBe('');
    expect(statement.balance).toEqual({ date: '2013-12-15', amount: '1234.12' });
  });
});

describe('QIF as French banks still export it', () => {
  it('reads day-first dates, decimal commas, payee and memo; lists a broken transaction with its reason', async () => {
    const qif = [
      '!Type:Bank',
      "D02/11'26",
      'T1 250,00',
      'PVIR M. DUPONT',
      'MLOYER NOVEMBRE',
      'N000123',
      '^',
      'D03/11/2026',
      'T-3,50',
      'PCB CAFÉ DE LA GARE',
      '^',
      'D31/11/2026',
      'T-1,00',
      'PDATE IMPOSSIBLE',
      '^',
      'D04/11/2026',
      'Tdouze',
      '^',
    ].join('\r\n');
    const reading = await readStatement(new Uint8Array(Buffer.from(qif, 'latin1')), 'releve.qif', { mode: 'preview' });
    if (reading.ok !== true) throw new Error(reading.ok === false ? reading.message : 'CSV columns to confirm');
    const { statement } = reading;
    expect(statement.format).toBe('qif');
    expect(statement.lines.map((l) => [l.date, l.amount, l.label, l.counterparty, l.reference])).toEqual([
      ['2026-11-02', '1250.00', 'VIR M. DUPONT LOYER NOVEMBRE', 'VIR M. DUPONT', '000123'],
      ['2026-11-03', '-3.50', 'CB CAFÉ DE LA GARE', 'CB CAFÉ DE LA GARE', ''],
    ]);
    expect(statement.rejected).toEqual([
      { line: 12, reason: 'Date (D) illisible' },
      { line: 16, reason: 'Montant (T) illisible' },
    ]);
  });
});
