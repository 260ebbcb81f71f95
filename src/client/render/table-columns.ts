import { percentText, unitWord } from '../../shared/french';
import type { DocumentTemplate } from '../../shared/schemas/template';
import type { Formatters } from './labels';
import type { RenderLine } from './types';
import { defined } from '../../shared/defined';

type TableColumn = DocumentTemplate['table']['cols'][number];
export type ColumnType = TableColumn['type'];
export interface ShownColumn extends TableColumn {
  /** Percent of the table width. */
  share: number;
}

const DEFAULT_WIDTHS: Record<ColumnType, number> = {
  position: 6,
  description: 40,
  quantity: 10,
  unit: 8,
  quantity_unit: 12,
  unit_price: 14,
  vat: 9,
  discount: 9,
  total_price: 14,
};
export const NUMERIC = new Set<ColumnType>(['quantity', 'quantity_unit', 'unit_price', 'vat', 'discount', 'total_price']);
export const CELL_PADDING_EM = 0.6;

/** A generous estimate of a one-line text's width, in em (tabular digits, separators, €, %), for any of the fonts. */
export function textEm(text: string): number {
  let em = 0;
  for (const ch of text) {
    if (/\d/.test(ch)) em += 0.6;
    else if (ch === ',' || ch === '.' || ch === ' ' || ch === '\u00a0' || ch === '\u202f') em += 0.32;
    else if (ch === '%') em += 0.9;
    else if (/[A-Z€]/.test(ch)) em += 0.68;
    else em += 0.56;
  }
  return em * 1.05;
}
/** The description keeps at least this share of the table when amounts need more room. */
const DESCRIPTION_FLOOR = 0.25;

/**
 * The visible columns, in the template's order, with their widths (a column without one gets its type's default).
 * Without VAT (franchise en base) there is no VAT column, and no header says HT or TTC.
 */
export function shownColumns(table: DocumentTemplate['table'], vat = true): ShownColumn[] {
  // Without VAT, a header says 'Prix unitaire', not 'Prix unitaire HT'.
  const cols = table.cols
    .filter((c) => c.visible && (vat || c.type !== 'vat'))
    .map((c) => (vat ? c : { ...c, label: c.label.replace(/\s+(HT|TTC)$/i, '') }));
  const widths = cols.map((c) => (c.width && c.width > 0 ? c.width : DEFAULT_WIDTHS[c.type]));
  const sum = widths.reduce((a, b) => a + b, 0) || 1;
  return cols.map((c, i) => ({ ...c, share: (defined(widths[i], 'widths[i]') / sum) * 100 }));
}

export function discountText(line: RenderLine, f: Formatters): string {
  if (!line.discount) return '';
  return line.discount_type === 'percent' ? percentText(f.quantity(line.discount_value)) : f.money(line.discount);
}

/** What a one-line cell shows (every column but the description). */
export function cellText(type: ColumnType, line: RenderLine, f: Formatters): string {
  switch (type) {
    case 'position':
      return String(line.position);
    case 'quantity':
      return f.quantity(line.quantity);
    case 'unit':
      return line.unit;
    case 'quantity_unit':
      return `${f.quantity(line.quantity)}${line.unit && line.unit !== 'u' ? ` ${unitWord(line.quantity, line.unit)}` : ''}`;
    case 'unit_price':
      return f.unitPrice(line.price);
    case 'vat':
      return line.taxes.map((t) => f.rate(t.rate)).join(' + ') || '—';
    case 'discount':
      return discountText(line, f) || '—';
    case 'total_price':
      return f.money(line.total);
    case 'description':
      return line.item;
  }
}

/**
 * Widths that fit: an amount never wraps, so a numeric column narrower than its longest value (a large total on
 * narrow margins) takes the room from the description first, then from columns with room to spare. Pure, from
 * the document and the width, so the measuring pass and the pages get the same columns.
 */
export function fitColumns(
  columns: ShownColumn[],
  lines: readonly RenderLine[],
  f: Formatters,
  width: number,
  fontPx: number,
): ShownColumn[] {
  if (width <= 0 || columns.length === 0) return columns;
  const need = columns.map((c) => {
    if (c.type === 'description') return DESCRIPTION_FLOOR * width;
    if (!NUMERIC.has(c.type) && c.type !== 'position') return 0;
    const size = typeof c.style?.font_size === 'number' ? c.style.font_size : fontPx;
    const em = Math.max(0, ...lines.map((l) => textEm(cellText(c.type, l, f))));
    return (em + 2 * CELL_PADDING_EM) * size;
  });
  const px = columns.map((c) => (c.share / 100) * width);
  let deficit = 0;
  const grown = px.map((p, i) => {
    if (defined(need[i], 'need[i]') <= p) return p;
    deficit += defined(need[i], 'need[i]') - p;
    return defined(need[i], 'need[i]');
  });
  if (deficit === 0) return columns;
  const description = columns.findIndex((c) => c.type === 'description');
  if (description >= 0) {
    const take = Math.min(
      deficit,
      Math.max(0, defined(grown[description], 'grown[description]') - defined(need[description], 'need[description]')),
    );
    grown[description] = defined(grown[description], 'grown[description]') - take;
    deficit -= take;
  }
  if (deficit > 0) {
    const slack = grown.map((p, i) => (i === description ? 0 : Math.max(0, p - defined(need[i], 'need[i]'))));
    const total = slack.reduce((a, b) => a + b, 0);
    if (total > 0) {
      const ratio = Math.min(1, deficit / total);
      slack.forEach((s, i) => {
        grown[i] = defined(grown[i], 'grown[i]') - s * ratio;
      });
    }
  }
  const sum = grown.reduce((a, b) => a + b, 0);
  return columns.map((c, i) => ({ ...c, share: (defined(grown[i], 'grown[i]') / sum) * 100 }));
}
