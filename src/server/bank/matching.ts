import { SURE } from '../../shared/schemas/bank';
import { creditorReference } from '../../shared/creditor-reference';
import { formatDecimal } from '../../shared/format';
import { fromStoredUnits, sub, toStoredUnits } from '../../shared/money';
import { isNetOfFee, maxFeeOn, processorIn } from './fees';

/**
 * Suggestions for a statement line: which open invoices a credit pays, which unpaid expense a debit settles, each with
 * why and how sure. Amounts are stored units (ten-thousandths). Every rule reads an index built once per import, so a
 * statement of ten thousand lines against thousands of open invoices costs a few lookups a line, not a scan.
 */
export type OpenInvoice = { id: number; number: string; customer: string; currency: string; balance: number; date: string };
export type OpenExpense = { id: number; supplier: string; invoiceNumber: string; currency: string; amount: number; date: string };
export type LineToMatch = { amount: number; currency: string; label: string; counterparty: string; reference: string };
export type Proposal = {
  kind: 'invoice' | 'expense';
  id: number;
  /** What the document is paid: the line's share plus `fee`. */
  amount: number;
  /** What a card processor or a bank kept of it on the way; 0 when the line carries the whole amount. */
  fee: number;
  reason: string;
  confidence: number;
  label: string;
  balance: number;
};

/** Upper-case letters and digits only: how numbers and references are compared ('F2026-0001' → 'F20260001'). */
export const compact = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Words of a name or a label, without accents, legal forms and short words. */
const GENERIC = new Set([
  'SARL',
  'SAS',
  'SASU',
  'EURL',
  'SA',
  'SCI',
  'SNC',
  'SCOP',
  'STE',
  'SOCIETE',
  'ETS',
  'ETABLISSEMENTS',
  'LES',
  'DES',
  'ET',
  'CIE',
  'VIR',
  'VIREMENT',
  'SEPA',
  'RECU',
  'PRLV',
  'CB',
  'DE',
  'DU',
  'LA',
  'LE',
]);
function words(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase()
      .split(/[^A-Z0-9]+/)
      // A number tells two names apart whatever its length (« Client 12 », « Client 123 »); a short word does not.
      .filter((w) => (w.length >= 3 || /^\d+$/.test(w)) && !GENERIC.has(w))
  );
}

/** Finds known numbers inside a compacted label: every length the numbers have, at every position. */
class NumberIndex<T> {
  private readonly byNumber = new Map<string, T[]>();
  private readonly lengths = new Set<number>();

  add(number: string, value: T) {
    const key = compact(number);
    // Too short to tell apart from a date or an amount in a label.
    if (key.length < 4) return;
    this.byNumber.set(key, [...(this.byNumber.get(key) ?? []), value]);
    this.lengths.add(key.length);
  }

  /** Each number found once, with whether it followed an ISO 11649 prefix (RF and two check digits). */
  find(label: string): { value: T; creditorReference: boolean }[] {
    const text = compact(label);
    const found = new Map<T, boolean>();
    for (const length of this.lengths) {
      for (let at = 0; at + length <= text.length; at++) {
        const values = this.byNumber.get(text.slice(at, at + length));
        if (!values) continue;
        // Not the start of a longer number: 'F20260001' is not found in 'F202600012'.
        const next = text[at + length];
        const previous = text[at - 1];
        if (next !== undefined && /\d/.test(next)) continue;
        if (previous !== undefined && /\d/.test(previous) && /^\d/.test(text[at] ?? '') && !/RF\d\d$/.test(text.slice(0, at))) continue;
        const creditorReference = /RF\d\d$/.test(text.slice(0, at));
        for (const value of values) found.set(value, (found.get(value) ?? false) || creditorReference);
      }
    }
    return [...found].map(([value, creditorReference]) => ({ value, creditorReference }));
  }
}

/** Finds the parties (customers, suppliers) whose significant words all appear in a label. */
class NameIndex<T> {
  private readonly byWord = new Map<string, { words: string[]; value: T }[]>();

  add(name: string, value: T) {
    const list = words(name);
    const key = [...list].sort((a, b) => b.length - a.length)[0];
    if (!key) return;
    this.byWord.set(key, [...(this.byWord.get(key) ?? []), { words: list, value }]);
  }

  find(label: string): T[] {
    const present = new Set(words(label));
    const found = new Set<T>();
    for (const word of present)
      for (const entry of this.byWord.get(word) ?? []) if (entry.words.every((w) => present.has(w))) found.add(entry.value);
    return [...found];
  }
}

/** Units of 10^-4 as French text with two decimals: « 12,50 ». */
const euros = (units: number) => formatDecimal(fromStoredUnits(units), 2);
/** A fee for a reason: « 1,45 € », « 2,10 USD ». */
const feeText = (units: number, currency: string) => `${euros(units)}\u00a0${currency === 'EUR' ? '€' : currency}`;
/** What `a` leaves over `b`, in units. */
const over = (a: number, b: number) => toStoredUnits(sub(fromStoredUnits(a), fromStoredUnits(b)));
/** Subsets looked at for a sum of one customer's invoices: its 12 oldest open ones (4,096 sums). */
const SUBSET_LIMIT = 12;

export function createMatcher(invoices: OpenInvoice[], expenses: OpenExpense[]) {
  const invoiceNumbers = new NumberIndex<OpenInvoice>();
  const customers = new NameIndex<string>();
  const invoicesOf = new Map<string, OpenInvoice[]>();
  const invoicesByAmount = new Map<number, OpenInvoice[]>();
  for (const invoice of [...invoices].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id)) {
    invoiceNumbers.add(invoice.number, invoice);
    const key = invoice.customer.trim().toUpperCase();
    if (!invoicesOf.has(key)) customers.add(invoice.customer, key);
    invoicesOf.set(key, [...(invoicesOf.get(key) ?? []), invoice]);
    invoicesByAmount.set(invoice.balance, [...(invoicesByAmount.get(invoice.balance) ?? []), invoice]);
  }
  const byBalance = [...invoices].sort((a, b) => Math.sign(over(a.balance, b.balance)) || a.date.localeCompare(b.date) || a.id - b.id);
  const expenseNumbers = new NumberIndex<OpenExpense>();
  const suppliers = new NameIndex<OpenExpense>();
  const expensesByAmount = new Map<number, OpenExpense[]>();
  for (const expense of [...expenses].sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id)) {
    if (expense.invoiceNumber) expenseNumbers.add(expense.invoiceNumber, expense);
    suppliers.add(expense.supplier, expense);
    expensesByAmount.set(expense.amount, [...(expensesByAmount.get(expense.amount) ?? []), expense]);
  }

  const invoiceProposal = (invoice: OpenInvoice, amount: number, reason: string, confidence: number, fee = 0): Proposal => ({
    kind: 'invoice',
    id: invoice.id,
    amount,
    fee,
    reason,
    confidence,
    label: `${invoice.number} · ${invoice.customer}`,
    balance: invoice.balance,
  });
  const expenseProposal = (expense: OpenExpense, reason: string, confidence: number): Proposal => ({
    kind: 'expense',
    id: expense.id,
    amount: expense.amount,
    fee: 0,
    reason,
    confidence,
    label: `${expense.supplier}${expense.invoiceNumber ? ` · ${expense.invoiceNumber}` : ''}`,
    balance: expense.amount,
  });

  /** An invoice paid by the line less a fee: its whole balance, the gap as the fee, and why. */
  const netOfFee = (invoice: OpenInvoice, line: LineToMatch, by: string, confidence: number, processor?: string) => {
    const fee = over(invoice.balance, line.amount);
    const reason = `${by}Montant net de frais de ${feeText(fee, line.currency)}${processor ? ` (${processor})` : ''}`;
    return invoiceProposal(invoice, invoice.balance, reason, confidence, fee);
  };

  /** Open invoices whose balance the line is, less a plausible fee: a range of balances, read from the sorted list. */
  function netOfFeeCandidates(line: LineToMatch): OpenInvoice[] {
    let low = 0;
    let high = byBalance.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((byBalance[mid] as OpenInvoice).balance <= line.amount) low = mid + 1;
      else high = mid;
    }
    const found: OpenInvoice[] = [];
    // The gap grows by the balance, the allowed fee by a few percent of it: past the first too far, all are.
    for (let at = low; at < byBalance.length; at++) {
      const invoice = byBalance[at] as OpenInvoice;
      if (over(invoice.balance, line.amount) > maxFeeOn(invoice.balance)) break;
      if (invoice.currency === line.currency) found.push(invoice);
    }
    return found;
  }

  function forCredit(line: LineToMatch): Proposal[] {
    const text = `${line.label} ${line.reference} ${line.counterparty}`;
    const processor = processorIn(text);
    const open = (i: OpenInvoice) => i.currency === line.currency && i.balance > 0;
    const numbered = invoiceNumbers.find(text).filter((f) => open(f.value));
    if (numbered.length === 1) {
      const [{ value: invoice, creditorReference: afterRf }] = numbered as [(typeof numbered)[number]];
      // « RF » and two digits before the number count only when they are that number's own check digits.
      const reference = creditorReference(invoice.number);
      const creditorReferenceFound = afterRf && reference !== null && compact(text).includes(reference);
      const by = creditorReferenceFound
        ? `Référence de virement ${reference} de ${invoice.number}`
        : `Numéro ${invoice.number} dans le libellé`;
      if (line.amount === invoice.balance)
        return [invoiceProposal(invoice, line.amount, `${by}, montant exact`, creditorReferenceFound ? 0.99 : 0.97)];
      // A payout of a card processor naming the invoice: the gap is the processor's fee, not a part left to pay.
      if (processor && isNetOfFee(line.amount, invoice.balance)) return [netOfFee(invoice, line, `${by}. `, 0.95, processor)];
      if (line.amount < invoice.balance)
        return [
          invoiceProposal(invoice, line.amount, `${by} : paiement partiel (reste ${euros(over(invoice.balance, line.amount))})`, SURE),
        ];
      return [
        invoiceProposal(
          invoice,
          invoice.balance,
          `${by} : le virement dépasse le reste à payer de ${euros(over(line.amount, invoice.balance))}`,
          0.6,
        ),
      ];
    }
    if (numbered.length > 1) {
      const total = numbered.reduce((sum, f) => sum + f.value.balance, 0);
      const reason = `Numéros de ${numbered.length} factures dans le libellé`;
      if (total === line.amount) return numbered.map((f) => invoiceProposal(f.value, f.value.balance, `${reason}, total exact`, 0.95));
      return numbered.map((f) => invoiceProposal(f.value, Math.min(f.value.balance, line.amount), `${reason}, total différent`, 0.5));
    }
    const named = customers.find(text).flatMap((key) => (invoicesOf.get(key) ?? []).filter(open));
    if (named.length > 0) {
      const exact = named.filter((i) => i.balance === line.amount);
      if (exact.length === 1) return [invoiceProposal(exact[0] as OpenInvoice, line.amount, 'Montant exact et nom du client', 0.93)];
      if (exact.length > 1)
        return exact
          .slice(0, 3)
          .map((i) => invoiceProposal(i, line.amount, 'Montant exact et nom du client (plusieurs factures de ce montant)', 0.6));
      const subsets = sumsOf(named.slice(0, SUBSET_LIMIT), line.amount);
      if (subsets.length >= 1) {
        const [first] = subsets as [OpenInvoice[]];
        const unique = subsets.length === 1;
        const reason = `Somme de ${first.length} factures du client${unique ? '' : ' (plusieurs combinaisons possibles)'}`;
        return first.map((i) => invoiceProposal(i, i.balance, reason, unique ? SURE : 0.6));
      }
      // The customer's name, a little less than one of its invoices: a fee kept, sure only when a processor paid it.
      const net = named.filter((i) => isNetOfFee(line.amount, i.balance));
      if (net.length === 1) return [netOfFee(net[0] as OpenInvoice, line, 'Nom du client. ', processor ? SURE : 0.6, processor)];
      if (net.length > 1)
        return net.slice(0, 3).map((i) => netOfFee(i, line, 'Nom du client (plusieurs factures possibles). ', 0.5, processor));
    }
    const sameAmount = (invoicesByAmount.get(line.amount) ?? []).filter(open);
    if (sameAmount.length === 1)
      return [invoiceProposal(sameAmount[0] as OpenInvoice, line.amount, 'Montant exact (seule facture ouverte de ce montant)', 0.75)];
    if (sameAmount.length === 0 && processor) {
      const net = netOfFeeCandidates(line);
      if (net.length === 1) return [netOfFee(net[0] as OpenInvoice, line, 'Seule facture ouverte de ce montant. ', 0.75, processor)];
      return net.slice(0, 3).map((i) => netOfFee(i, line, 'Plusieurs factures possibles. ', 0.5, processor));
    }
    return sameAmount.slice(0, 3).map((i) => invoiceProposal(i, line.amount, 'Montant exact (plusieurs factures de ce montant)', 0.5));
  }

  function forDebit(line: LineToMatch): Proposal[] {
    const amount = -line.amount;
    const text = `${line.label} ${line.reference} ${line.counterparty}`;
    const fits = (e: OpenExpense) => e.currency === line.currency && e.amount === amount;
    const numbered = expenseNumbers
      .find(text)
      .map((f) => f.value)
      .filter(fits);
    if (numbered.length === 1)
      return [expenseProposal(numbered[0] as OpenExpense, 'Numéro de la facture fournisseur dans le libellé, montant exact', 0.97)];
    const named = suppliers.find(text).filter(fits);
    if (named.length === 1) return [expenseProposal(named[0] as OpenExpense, 'Montant exact et nom du fournisseur', 0.93)];
    if (named.length > 1)
      return named
        .slice(0, 3)
        .map((e) => expenseProposal(e, 'Montant exact et nom du fournisseur (plusieurs dépenses de ce montant)', 0.6));
    const sameAmount = (expensesByAmount.get(amount) ?? []).filter(fits);
    if (sameAmount.length === 1)
      return [expenseProposal(sameAmount[0] as OpenExpense, 'Montant exact (seule dépense à payer de ce montant)', 0.75)];
    return sameAmount.slice(0, 3).map((e) => expenseProposal(e, 'Montant exact (plusieurs dépenses de ce montant)', 0.5));
  }

  return {
    suggest: (line: LineToMatch): Proposal[] => (line.amount > 0 ? forCredit(line) : line.amount < 0 ? forDebit(line) : []),
  };
}

/** The subsets (two invoices or more) of `invoices` whose balances sum to `amount`; at most two, enough to know if it is unique. */
function sumsOf(invoices: OpenInvoice[], amount: number): OpenInvoice[][] {
  const found: OpenInvoice[][] = [];
  const count = invoices.length;
  for (let mask = 1; mask < 1 << count && found.length < 2; mask++) {
    if ((mask & (mask - 1)) === 0) continue;
    let sum = 0;
    for (let i = 0; i < count; i++) if (mask & (1 << i)) sum += (invoices[i] as OpenInvoice).balance;
    if (sum === amount) found.push(invoices.filter((_, i) => mask & (1 << i)));
  }
  return found;
}

/**
 * The documents that several sure lines claim for more than they owe: which line paid them (the same transfer sent
 * twice?) is the user's choice. Lines that together fit in a balance (a deposit and the rest of one invoice) are not.
 */
export function contestedDocuments(candidates: { proposals: Proposal[] }[]): Set<string> {
  // Summed in stored integer units: in floats a deposit of 0,10 and a rest of 0,20 would claim more than 0,30.
  const claims = new Map<string, { lines: number; units: number; balanceUnits: number }>();
  for (const c of candidates)
    for (const p of c.proposals) {
      const key = `${p.kind}:${p.id}`;
      const claim = claims.get(key) ?? { lines: 0, units: 0, balanceUnits: toStoredUnits(p.balance) };
      claims.set(key, { lines: claim.lines + 1, units: claim.units + toStoredUnits(p.amount), balanceUnits: claim.balanceUnits });
    }
  return new Set([...claims].filter(([, c]) => c.lines > 1 && c.units > c.balanceUnits).map(([key]) => key));
}
