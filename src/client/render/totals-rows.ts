import { showsTotal } from '../../shared/status';
import { sub, toNumber } from '../../shared/money';
import { percentText } from '../../shared/french';
import { MINUS } from '../../shared/format';
import type { DocumentTemplate } from '../../shared/schemas/template';
import type { Formatters } from './labels';
import type { RenderDocument } from './types';

export interface TotalRow {
  key: string;
  label: string;
  value: string;
  /** The grand total and the amount due stand out (the template's `total` style). */
  strong?: boolean;
}

/** A tax title without the rate it may already carry ('TVA 20 %' → 'TVA'), the rate being shown with two decimals. */
const taxName = (title: string) => title.replace(/\s*\d+(?:[.,]\d+)?\s*%\s*$/, '').trim() || 'TVA';

/**
 * The totals block, row by row, per the template's `table.totals` flags: subtotal, discount, shipping, each tax
 * group, the VAT total, total, each deposit invoice deducted, credit notes, payments, and what is left to pay.
 */
export function totalRows(doc: RenderDocument, flags: DocumentTemplate['table']['totals'], f: Formatters): TotalRow[] {
  if (!showsTotal(doc.type)) return [];
  const t = doc.totals;
  const rows: TotalRow[] = [];
  const minus = (amount: number) => `${MINUS}${f.money(amount)}`;
  const hasDiscount = t.discount !== 0;
  // Under the franchise en base (doc.vat false) no row speaks of VAT, HT or TTC (CGI art. 293 B).
  const hasTaxes = doc.vat && t.taxes.length > 0;
  const ht = doc.vat ? ' HT' : '';

  if (flags.subtotal)
    rows.push({
      key: 'subtotal',
      label: hasDiscount && flags.discount ? `Sous-total${ht}` : doc.vat ? 'Total HT' : 'Sous-total',
      value: f.money(t.subtotal),
    });
  if (flags.discount && hasDiscount) {
    const rate = t.discount_type === 'percent' && t.discount_value ? ` ${percentText(f.quantity(t.discount_value))}` : '';
    rows.push({ key: 'discount', label: `Remise${rate}`, value: minus(t.discount) });
    if (flags.subtotal) rows.push({ key: 'net', label: `Total${ht} après remise`, value: f.money(toNumber(sub(t.subtotal, t.discount))) });
  }
  // Shipping before the VAT rows: it is part of their base (CGI art. 267).
  if (flags.shipping && t.shipping !== 0) rows.push({ key: 'shipping', label: `Frais de port${ht}`, value: f.money(t.shipping) });
  if (flags.taxes && doc.vat) {
    for (const tax of t.taxes) {
      rows.push({
        key: `tax-${tax.title}-${tax.rate}`,
        label: `${taxName(tax.title)} ${f.rate(tax.rate)} sur ${f.money(tax.taxable_amount)}`,
        value: f.money(tax.amount),
      });
    }
    // CGI art. 242 nonies A: the VAT amount is stated; its total follows the amounts per rate.
    if (hasTaxes && t.tax !== 0) rows.push({ key: 'tax-total', label: 'Total TVA', value: f.money(t.tax) });
  }
  if (flags.total) rows.push({ key: 'total', label: hasTaxes ? 'Total TTC' : 'Total', value: f.money(t.total), strong: true });
  // Directive 2006/112/CE art. 230: the VAT of an invoice in another currency is also stated in the accounting one.
  const inBase = doc.vat_in_base;
  if (inBase) {
    const exchange = `1 ${inBase.currency} = ${f.quantity(Number(inBase.rate))} ${doc.currency}`;
    for (const tax of inBase.taxes)
      rows.push({
        key: `vat-base-${tax.rate}`,
        label: `TVA ${f.rate(tax.rate)} en ${inBase.currency}`,
        value: f.moneyIn(tax.amount, inBase.currency),
      });
    rows.push({
      key: 'vat-base-total',
      label: `Total TVA en ${inBase.currency} (${exchange})`,
      value: f.moneyIn(inBase.total, inBase.currency),
    });
  }

  const deducted = t.deposit_invoices.length > 0 || t.credited !== 0 || t.paid !== 0;
  if (flags.deposits) {
    for (const d of t.deposit_invoices) {
      const label = d.number ? `Acompte n° ${d.number}` : 'Acompte';
      rows.push({ key: `deposit-${d.number ?? ''}`, label, value: minus(d.total) });
    }
  }
  if (t.credited !== 0) rows.push({ key: 'credited', label: 'Avoirs', value: minus(t.credited) });
  if (flags.paid && t.paid !== 0) rows.push({ key: 'paid', label: 'Déjà réglé', value: minus(t.paid) });
  if (flags.due && deducted) rows.push({ key: 'due', label: 'Net à payer', value: f.money(t.amount_due), strong: true });
  return rows;
}
