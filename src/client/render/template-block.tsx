import type { CSSProperties } from 'react';
import type { TemplateRow } from '../../shared/schemas/template';
import { ElementView, isEmptyElement } from './elements';
import type { PagePosition, RenderContext } from './render-context';
import { styleToCss } from './style-css';

const ALIGN = { start: 'flex-start', center: 'center', end: 'flex-end', stretch: 'stretch' } as const;

/** A row shows when one of its elements has something to show (an empty header note leaves no gap). */
export const visibleRows = (rows: readonly TemplateRow[], ctx: RenderContext) =>
  rows.filter((row) => row.columns.some((col) => col.elements.some((e) => !isEmptyElement(e, ctx))));

/**
 * Template rows on a 12-column grid: a row has align (cross axis) and justify (main axis); a column its
 * span, offset, text alignment, own vertical alignment and style. Elements stack within their column.
 */
export function TemplateBlock({
  rows,
  ctx,
  position,
  gap,
  name,
}: {
  rows: readonly TemplateRow[];
  ctx: RenderContext;
  position: PagePosition;
  gap: string;
  name: string;
}) {
  const shown = visibleRows(rows, ctx);
  return (
    <div data-block={name} style={{ display: 'flex', flexDirection: 'column', gap }}>
      {shown.map((row, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: template rows have no id; their place in the grid is their identity
        <div key={r} data-row="" style={{ display: 'flex', alignItems: ALIGN[row.align], justifyContent: row.justify, width: '100%' }}>
          {row.columns.map((col, c) => {
            const style: CSSProperties = {
              boxSizing: 'border-box',
              flex: '0 0 auto',
              width: `${(col.cols / 12) * 100}%`,
              marginLeft: col.offset ? `${(col.offset / 12) * 100}%` : undefined,
              textAlign: col.text_align,
              alignSelf: col.align === 'start' ? undefined : ALIGN[col.align],
              display: 'flex',
              flexDirection: 'column',
              gap: '0.6em',
              minWidth: 0,
              ...styleToCss(col.style),
            };
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: template columns have no id; their place in the row is their identity
              <div key={c} data-col="" style={style}>
                {col.elements.map((element, e) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: template elements have no id; their place in the column is their identity
                  <ElementView key={e} element={element} ctx={ctx} position={position} align={col.text_align} />
                ))}
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
