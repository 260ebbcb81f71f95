import type { CSSProperties } from 'react';
import { PX_PER_CM } from '../../shared/pagination';
import type { DocumentTemplate } from '../../shared/schemas/template';
import { INK, type PagePosition, type RenderContext } from './render-context';
import { TemplateBlock, visibleRows } from './template-block';

/** A4 at 96 dpi (210 × 297 mm). */
export const PAGE_WIDTH = 794;
export const PAGE_HEIGHT = 1123;
const HEADER_GAP = 16;
const FOOTER_GAP = 14;

export const marginsOf = (template: DocumentTemplate, first: boolean) =>
  first ? template.margins.first_page : template.margins.following_pages;

/** Page padding from the template's margins in cm (37.8 px a centimetre). */
export function paddingOf(template: DocumentTemplate, first: boolean): CSSProperties {
  const m = marginsOf(template, first);
  return {
    paddingTop: m.top * PX_PER_CM,
    paddingRight: m.right * PX_PER_CM,
    paddingBottom: m.bottom * PX_PER_CM,
    paddingLeft: m.left * PX_PER_CM,
  };
}

/** The width left for content between the side margins. */
export function contentWidth(template: DocumentTemplate, first: boolean): number {
  const m = marginsOf(template, first);
  return PAGE_WIDTH - (m.left + m.right) * PX_PER_CM;
}

const FAMILIES: Record<string, string> = {
  'system-ui': 'system-ui, -apple-system, "Segoe UI", sans-serif',
  Georgia: 'Georgia, "Times New Roman", serif',
};

export const fontStack = (family: string) => FAMILIES[family] ?? `"${family.replace(/"/g, '')}", Karla, system-ui, sans-serif`;

/** The template's font family, size (pt) and line height, on every page and in the measuring pass. */
export function typographyOf(template: DocumentTemplate): CSSProperties {
  return {
    fontFamily: fontStack(template.font_family),
    fontSize: `${template.font_size}pt`,
    lineHeight: template.line_height,
    color: INK,
    fontKerning: 'normal',
    textRendering: 'geometricPrecision',
  };
}

/** Header elements on the first page, `elements_following_pages` on the next ones, with the space under them. */
export function HeaderArea({ ctx, position }: { ctx: RenderContext; position: PagePosition }) {
  const rows = position.page === 1 ? ctx.template.header : ctx.template.elements_following_pages;
  if (visibleRows(rows, ctx).length === 0) return <div data-area="header" />;
  return (
    <div data-area="header" style={{ paddingBottom: HEADER_GAP }}>
      <TemplateBlock name={position.page === 1 ? 'header' : 'following'} rows={rows} ctx={ctx} position={position} gap="1em" />
    </div>
  );
}

export function FooterArea({ ctx, position }: { ctx: RenderContext; position: PagePosition }) {
  if (visibleRows(ctx.template.footer, ctx).length === 0) return <div data-area="footer" />;
  return (
    <div data-area="footer" style={{ paddingTop: FOOTER_GAP }}>
      <TemplateBlock name="footer" rows={ctx.template.footer} ctx={ctx} position={position} gap="0.5em" />
    </div>
  );
}

/** Fold line: a short mark at a third of the page (a letter folded in three), left or right. */
export function FoldLine({ template, page }: { template: DocumentTemplate; page: number }) {
  const fold = template.fold_line;
  if (!fold.status || (fold.only_first_page && page > 1)) return null;
  return (
    <div
      data-fold-line=""
      aria-hidden="true"
      style={{ position: 'absolute', top: '99mm', [fold.alignment]: '4mm', width: '6mm', borderTop: '0.75px solid #98A2B3' }}
    />
  );
}
