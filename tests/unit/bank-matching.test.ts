import { describe, expect, it } from 'vitest';
import { contestedDocuments, createMatcher, type OpenExpense, type OpenInvoice, type Proposal } from '../../src/server/bank/matching';

const units = (euros: number) => Math.round(euros * 10_000);
const invoice = (id: number, number: string, customer: string, balance: number, date = '2026-10-01'): OpenInvoice => ({
  id,
  number,
  customer,
  currency: 'EUR',
  balance: units(balance),
  date,
});
const expense = (id: number, supplier: string, amount: number, invoiceNumber = ''): OpenExpense => ({
  id,
  supplier,
  invoiceNumber,
  currency: 'EUR',
  amount: units(amount),
  date: '2026-10-01',
});
const credit = (amount: number, label: string, counterparty = '') => ({
  amount: units(amount),
  currency: 'EUR',
  label,
  counterparty,
  reference: '',
});

const invoices = [
  invoice(1, 'F2026-0001', 'Boulangerie Martin', 120),
  invoice(2, 'F2026-0012', 'Client 12', 80),
  invoice(7, 'F2026-0300', 'Client 1', 95.5),
  invoice(3, 'F2026-0123', 'Client 123', 95.5),
  invoice(4, 'F2026-0124', 'Client 123', 40),
  invoice(5, 'F2026-0200', 'Fromagerie Dubois', 60),
  invoice(6, 'F2026-0201', 'Fromagerie Dubois', 60),
];
const expenses = [expense(10, 'Orange Business', 59.99, 'INV-77812'), expense(11, 'EDF', 42.1)];
const matcher = createMatcher(invoices, expenses);
const suggest = (line: ReturnType<typeof credit>) =>
  matcher.suggest(line).map((p) => ({ id: p.id, confidence: p.confidence, amount: p.amount / 10_000 }));

describe('bank line suggestions', () => {
  it.each([
    [
      'the number, written with spaces, and the exact amount',
      credit(120, 'VIR SEPA BOULANGERIE MARTIN FACT F2026 0001'),
      [{ id: 1, confidence: 0.97, amount: 120 }],
    ],
    ['the RF reference made from the number', credit(120, 'RF12 F202 6000 1'), [{ id: 1, confidence: 0.99, amount: 120 }]],
    ['« RF » with wrong check digits is only the number', credit(120, 'RF18 F202 6000 1'), [{ id: 1, confidence: 0.97, amount: 120 }]],
    ['a number is not found inside a longer one', credit(80, 'FACTURE F2026-00123 AVOIR'), [{ id: 2, confidence: 0.75, amount: 80 }]],
    [
      'the customer named (not its neighbour « Client 12 ») and its exact amount',
      credit(95.5, 'VIR SEPA CLIENT 123'),
      [{ id: 3, confidence: 0.93, amount: 95.5 }],
    ],
    [
      'a sum of two invoices of one customer',
      credit(135.5, 'VIREMENT CLIENT 123 SOLDE'),
      [
        { id: 3, confidence: 0.9, amount: 95.5 },
        { id: 4, confidence: 0.9, amount: 40 },
      ],
    ],
    ['a partial payment by number', credit(50, 'ACOMPTE F2026-0001'), [{ id: 1, confidence: 0.9, amount: 50 }]],
    [
      'two invoices of the same amount: to choose, never sure',
      credit(60, 'VIR FROMAGERIE DUBOIS'),
      [
        { id: 5, confidence: 0.6, amount: 60 },
        { id: 6, confidence: 0.6, amount: 60 },
      ],
    ],
    ['nothing', credit(13.37, 'VIR INCONNU'), []],
  ])('%s', (_, line, expected) => {
    expect(suggest(line)).toEqual(expected);
  });

  it('matches a debit to the unpaid expense by its invoice number, or by its supplier and amount', () => {
    expect(suggest(credit(-59.99, 'PRLV SEPA ORANGE BUSINESS INV-77812'))).toEqual([{ id: 10, confidence: 0.97, amount: 59.99 }]);
    expect(suggest(credit(-42.1, 'PRLV EDF CLIENTS PARTICULIERS'))).toEqual([{ id: 11, confidence: 0.93, amount: 42.1 }]);
    expect(suggest(credit(-42.11, 'PRLV EDF'))).toEqual([]);
  });
});

describe('« Tout valider »: documents claimed by several sure lines', () => {
  const claim = (amount: number, balance: number): { proposals: Proposal[] } => ({
    proposals: [{ kind: 'invoice', id: 7, amount, fee: 0, reason: 'Numéro de facture', confidence: 1, label: 'F-7', balance }],
  });

  it.each([
    { case: 'a deposit and the rest (0,10 + 0,20 of 0,30: more than 0,30 in floats)', amounts: [0.1, 0.2], balance: 0.3, contested: false },
    { case: 'a deposit and the rest of 1 204,40', amounts: [400, 804.4], balance: 1204.4, contested: false },
    { case: 'the same transfer sent twice', amounts: [120, 120], balance: 120, contested: true },
    { case: 'one cent more than the balance', amounts: [0.1, 0.21], balance: 0.3, contested: true },
    { case: 'one line alone, even for more than the balance', amounts: [500], balance: 120, contested: false },
  ])('$case', ({ amounts, balance, contested }) => {
    expect(contestedDocuments(amounts.map((amount) => claim(amount, balance))).has('invoice:7')).toBe(contested);
  });
});
