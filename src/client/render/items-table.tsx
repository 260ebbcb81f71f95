import { useMemo, type CSSProperties } from 'react';
import { TOTAL_ROW_HEIGHT } from '../../shared/pagination';
import { MUTED, RULE, type RenderContext } from './render-context';
import { mergeCss, styleToCss } from './style-css';
import type { RenderLine } from './types';
import {
  CELL_PADDING_EM,
  cellText,
  discountText,
  fitColumns,
  NUMERIC,
  shownColumns,
  type ColumnType,
  type ShownColumn,
} from './table-columns';

const alignOf = (type: ColumnType): CSSProperties['textAlign'] => (NUMERIC.has(type) ? 'right' : type === 'position' ? 'center' : 'left');

const cellBase: CSSProperties = {
  padding: `0.42em ${CELL_PADDING_EM}em`,
  verticalAlign: 'top',
  borderBottom: `1px solid ${RULE}`,
  overflowWrap: 'anywhere',
};
const numeric: CSSProperties = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' };

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
          {line.description.trim() && (
            <div style={{ fontSize: '0.9em', color: MUTED, whiteSpace: 'pre-wrap', marginTop: '0.15em', ...styleToCss(column.style) }}>
              {line.description}
            </div>
          )}
          {discountHidden && line.discount !== 0 && (
            <div style={{ fontSize: '0.85em', color: MUTED }}>Remise {discountText(line, ctx.f)} incluse</div>
          )}
        </>
      );
    }
    default:
      return <>{cellText(column.type, line, f)}</>;
  }
}

/** Per rendering and width, the fitted columns: every page's table and the measuring pass share one computation. */
const fittedColumns = new WeakMap<RenderContext, Map<number, ShownColumn[]>>();

/** Widths from every line of the document, not one page's only: all pages share the measured columns. */
function columnsOf(ctx: RenderContext, width: number): ShownColumn[] {
  let byWidth = fittedColumns.get(ctx);
  if (!byWidth) {
    byWidth = new Map();
    fittedColumns.set(ctx, byWidth);
  }
  let columns = byWidth.get(width);
  if (!columns) {
    // A 500-line document has 25 pages: fitting each page's table again would format every amount 25 times.
    columns = fitColumns(shownColumns(ctx.template.table, ctx.doc.vat), ctx.doc.lines, ctx.f, width, (ctx.template.font_size * 4) / 3);
    byWidth.set(width, columns);
  }
  return columns;
}

/** The items table of one page: the repeated head, then this page's lines (table styles). */
export interface Carry {
  kind: 'previous' | 'subtotal';
  label: string;
  amount: number;
}

export function ItemsTable({
  ctx,
  lines,
  width,
  before,
  after,
}: {
  ctx: RenderContext;
  lines: readonly RenderLine[];
  width: number;
  before?: Carry;
  after?: Carry;
}) {
  const { table } = ctx.template;
  const columns = useMemo(() => columnsOf(ctx, width), [ctx, width]);
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
            <th
              key={c.type}
              scope="col"
              style={mergeCss(
                cellBase,
                {
                  textAlign: alignOf(c.type),
                  verticalAlign: 'bottom',
                  fontSize: '0.88em',
                  lineHeight: 1.25,
                  borderBottom: `1px solid #D0D5DD`,
                  overflowWrap: 'normal',
                  hyphens: 'auto',
                },
                head,
              )}
            >
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {before && <CarryRow ctx={ctx} carry={before} span={columns.length} />}
        {lines.map((line) => (
          <tr key={line.position} data-line={line.position} style={line.position % 2 === 1 ? odd : even}>
            {columns.map((c) => (
              <td
                key={c.type}
                style={mergeCss(
                  cellBase,
                  { textAlign: alignOf(c.type) },
                  NUMERIC.has(c.type) ? numeric : undefined,
                  c.type === 'description' ? undefined : styleToCss(c.style),
                )}
              >
                <CellContent column={c} line={line} ctx={ctx} />
              </td>
            ))}
          </tr>
        ))}
        {after && <CarryRow ctx={ctx} carry={after} span={columns.length} />}
      </tbody>
    </table>
  );
}

/** A 40 px row carrying the subtotal to the next page, or bringing it from the previous one. */
function CarryRow({ ctx, carry, span }: { ctx: RenderContext; carry: Carry; span: number }) {
  const style = mergeCss({ fontWeight: 600, background: '#F9FAFB' }, styleToCss(ctx.template.table.style.tfoot));
  return (
    <tr data-carry={carry.kind} style={{ ...style, height: TOTAL_ROW_HEIGHT }}>
      <td
        colSpan={span}
        style={{
          ...cellBase,
          padding: '0 0.6em',
          height: TOTAL_ROW_HEIGHT,
          boxSizing: 'border-box',
          verticalAlign: 'middle',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
        }}
      >
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: '2em' }}>
          <span>{carry.label}</span>
          <span style={numeric}>{ctx.f.money(carry.amount)}</span>
        </div>
      </td>
    </tr>
  );
}
