import type { CSSProperties } from 'react';
import { TOTAL_ROW_HEIGHT } from '../../shared/pagination';
import type { DocumentTemplate } from '../../shared/schemas/template';
import { MUTED, RULE, type RenderContext } from './render-context';
import { mergeCss, styleToCss } from './style-css';
import type { RenderLine } from './types';

type TableColumn = DocumentTemplate['table']['cols'][number];
export interface ShownColumn extends TableColumn {
  /** Percent of the table width, the visible columns' widths scaled to add up to 100. */
  share: number;
}

const DEFAULT_WIDTHS: Record<TableColumn['type'], number> = { position: 6, description: 40, quantity: 10, unit: 8, quantity_unit: 12, unit_price: 14, vat: 9, discount: 9, total_price: 14 };
const NUMERIC = new Set<TableColumn['type']>(['quantity', 'quantity_unit', 'unit_price', 'vat', 'discount', 'total_price']);

/** The visible columns, in the template's order, with their widths (a column without one gets its type's default). */
export function shownColumns(table: DocumentTemplate['table']): ShownColumn[] {
  const cols = table.cols.filter((c) => c.visible);
  const widths = cols.map((c) => (c.width && c.width > 0 ? c.width : DEFAULT_WIDTHS[c.type]));
  const sum = widths.reduce((a, b) => a + b, 0) || 1;
  return cols.map((c, i) => ({ ...c, share: (widths[i]! / sum) * 100 }));
}

const alignOf = (type: TableColumn['type']): CSSProperties['textAlign'] => (NUMERIC.has(type) ? 'right' : type === 'position' ? 'center' : 'left');

const cellBase: CSSProperties = { padding: '0.42em 0.6em', verticalAlign: 'top', borderBottom: `1px solid ${RULE}`, overflowWrap: 'anywhere' };
const numeric: CSSProperties = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' };

function discountText(line: RenderLine, ctx: RenderContext): string {
  if (!line.discount) return '';
  return line.discount_type === 'percent' ? `${ctx.f.quantity(line.discount_value)} %` : ctx.f.money(line.discount);
}

function CellContent({ column, line, ctx }: { column: ShownColumn; line: RenderLine; ctx: RenderContext }) {
  const { f } = ctx;
  switch (column.type) {
    case 'position':
      return <>{line.position}</>;
    case 'description': {
      const discountHidden = !ctx.template.table.cols.some((c) => c.type === 'discount' && c.visible);
      const reference = column.show_sku ? line.sku || line.code : '';
      return (
        <>
          {column.show_item !== false && <div style={{ fontWeight: 600 }}>{line.item || '—'}</div>}
          {reference && <div style={{ fontSize: '0.85em', color: MUTED }}>Réf. {reference}</div>}
          {line.description.trim() && <div style={{ fontSize: '0.9em', color: MUTED, whiteSpace: 'pre-wrap', marginTop: '0.15em', ...styleToCss(column.style) }}>{line.description}</div>}
          {discountHidden && line.discount !== 0 && <div style={{ fontSize: '0.85em', color: MUTED }}>Remise {discountText(line, ctx)} incluse</div>}
        </>
      );
    }
    case 'quantity':
      return <>{f.quantity(line.quantity)}</>;
    case 'unit':
      return <>{line.unit}</>;
    case 'quantity_unit':
      return (
        <>
          {f.quantity(line.quantity)}
          {line.unit && line.unit !== 'u' ? ` ${line.unit}` : ''}
        </>
      );
    case 'unit_price':
      return <>{f.money(line.price)}</>;
    case 'vat':
      return <>{line.taxes.map((t) => f.rate(t.rate)).join(' + ') || '—'}</>;
    case 'discount':
      return <>{discountText(line, ctx) || '—'}</>;
    case 'total_price':
      return <>{f.money(line.total)}</>;
  }
}

/** The items table of one page: the repeated head, then this page's lines (SPEC §3 table styles). */
export function ItemsTable({ ctx, lines }: { ctx: RenderContext; lines: readonly RenderLine[] }) {
  const { table } = ctx.template;
  const columns = shownColumns(table);
  const s = table.style;
  const head = styleToCss(s.thead);
  const odd = styleToCss(s.tbody.odd);
  const even = styleToCss(s.tbody.even);
  return (
    <table data-items="" style={mergeCss({ width: '100%', tableLayout: 'fixed', borderCollapse: 'collapse' }, styleToCss(s.general))}>
      <colgroup>
        {columns.map((c) => (
          <col key={c.type} style={{ width: `${c.share}%` }} />
        ))}
      </colgroup>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.type} scope="col" style={mergeCss(cellBase, { textAlign: alignOf(c.type), fontSize: '0.88em', borderBottom: `1px solid #D0D5DD`, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }, head)}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.position} data-line={line.position} style={line.position % 2 === 1 ? odd : even}>
            {columns.map((c) => (
              <td key={c.type} style={mergeCss(cellBase, { textAlign: alignOf(c.type) }, NUMERIC.has(c.type) ? numeric : undefined, c.type === 'description' ? undefined : styleToCss(c.style))}>
                <CellContent column={c} line={line} ctx={ctx} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A 40 px row (SPEC §9) carrying the subtotal to the next page, or bringing it from the previous one. */
export function CarryRow({ ctx, label, amount, kind }: { ctx: RenderContext; label: string; amount: number; kind: 'subtotal' | 'previous' }) {
  return (
    <div
      data-carry={kind}
      style={mergeCss(
        { height: TOTAL_ROW_HEIGHT, boxSizing: 'border-box', overflow: 'hidden', display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: '2em', padding: '0 0.6em', fontWeight: 600, background: '#F9FAFB', borderBottom: `1px solid ${RULE}` },
        styleToCss(ctx.template.table.style.tfoot),
        { height: TOTAL_ROW_HEIGHT, boxSizing: 'border-box', overflow: 'hidden' },
      )}
    >
      <span>{label}</span>
      <span style={numeric}>{ctx.f.money(amount)}</span>
    </div>
  );
}
