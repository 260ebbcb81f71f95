import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { PageLayout } from '../../shared/pagination';
import type { AppSettings } from '../../shared/schemas/settings';
import type { DocumentTemplate } from '../../shared/schemas/template';
import { ItemsTable } from './items-table';
import { imagesSettled } from './measure';
import { usePageLayout, type Layout, type Snapshot } from './use-page-layout';
import { contentWidth, FoldLine, FooterArea, HeaderArea, PAGE_HEIGHT, PAGE_WIDTH, paddingOf, typographyOf } from './page-parts';
import { markPrintPath, PRINT_CSS } from './print-css';
import { renderContextOf, type RenderContext } from './render-context';
import { TotalsBlock } from './totals-block';
import { carriedAmounts, fitPages } from './page-flow';
import type { RenderDocument } from './types';
import { defined } from '../../shared/defined';

export interface DocumentPagesProps {
  doc: RenderDocument;
  template: DocumentTemplate;
  settings: AppSettings;
  /** Display scale of the pages (1 = A4 at 96 dpi); print and PDF always use 1. */
  scale?: number;
  onPaginated?: (pages: number) => void;
  /** The printer's key for this rendering, on the root beside data-render-ready: it waits for exactly this one. */
  renderKey?: string;
}

const PAGE_GAP = 24;

/**
 * One page. Memoised, as the measuring pass below: the root draws again when its layout lands and again once its images
 * are painted (the ready flag), and a 500-line document's pages cost hundreds of milliseconds to draw for nothing.
 */
const Page = memo(function Page({
  ctx,
  layout,
  index,
  count,
  carried,
}: {
  ctx: RenderContext;
  layout: PageLayout;
  index: number;
  count: number;
  carried: { before: number; after: number };
}) {
  const { template, doc } = ctx;
  const position = { page: index + 1, pages: count };
  const last = index === count - 1;
  const lines = layout.rows.map((r) => defined(doc.lines[r], 'doc.lines[r]')).filter(Boolean);
  return (
    <section
      data-page={index + 1}
      data-capacity={Math.floor(layout.capacity)}
      aria-label={`Page ${index + 1} sur ${count}`}
      style={{
        ...typographyOf(template),
        ...paddingOf(template, index === 0),
        width: PAGE_WIDTH,
        height: PAGE_HEIGHT,
        boxSizing: 'border-box',
        position: 'relative',
        overflow: 'hidden',
        background: 'white',
        display: 'flex',
        flexDirection: 'column',
      }}
      data-document-page=""
    >
      <FoldLine template={template} page={index + 1} />
      <HeaderArea ctx={ctx} position={position} />
      <ItemsTable
        ctx={ctx}
        lines={lines}
        width={contentWidth(template, index === 0)}
        before={
          index > 0 && template.table.show_subtotal_previous
            ? { kind: 'previous', label: `Report${ctx.doc.vat ? ' HT' : ''} de la page précédente`, amount: carried.before }
            : undefined
        }
        after={
          !last && template.table.show_subtotal
            ? { kind: 'subtotal', label: `Sous-total${ctx.doc.vat ? ' HT' : ''} à reporter`, amount: carried.after }
            : undefined
        }
      />
      {layout.hasTotals && <TotalsBlock ctx={ctx} />}
      <div style={{ flex: '1 1 auto' }} />
      <FooterArea ctx={ctx} position={position} />
    </section>
  );
});

/** The offscreen pass: every block at the width it will have, at scale 1. */
const MeasureArea = memo(function MeasureArea({ ctx, measureRef }: { ctx: RenderContext; measureRef: RefObject<HTMLDivElement | null> }) {
  const { template } = ctx;
  const first = contentWidth(template, true);
  const following = contentWidth(template, false);
  const widths = first === following ? [first] : [first, following];
  const at = (name: string, width: number, children: ReactNode) => (
    <div key={`${name}-${width}`} data-measure={name} style={{ width, display: 'flow-root' }}>
      {children}
    </div>
  );
  return (
    <div
      ref={measureRef}
      aria-hidden="true"
      data-document-measure=""
      style={{
        ...typographyOf(template),
        position: 'absolute',
        left: -20000,
        top: 0,
        visibility: 'hidden',
        pointerEvents: 'none',
        contain: 'layout style',
      }}
    >
      {at('header', first, <HeaderArea ctx={ctx} position={{ page: 1, pages: 1 }} />)}
      {at('following', following, <HeaderArea ctx={ctx} position={{ page: 2, pages: 2 }} />)}
      {widths.map((w) => at('footer', w, <FooterArea ctx={ctx} position={{ page: 1, pages: 1 }} />))}
      {widths.map((w) => at('table', w, <ItemsTable ctx={ctx} lines={ctx.doc.lines} width={w} />))}
      {widths.map((w) => at('totals', w, <TotalsBlock ctx={ctx} />))}
    </div>
  );
});

/**
 * The one renderer: A4 pages from a document and the template settings, paginated from measured
 * heights. The root carries data-render-ready="true" and data-pages once laid out (the PDF waits for it).
 */
export function DocumentPages({ doc, template, settings, scale = 1, onPaginated, renderKey }: DocumentPagesProps) {
  // Callers may rebuild equal objects on each render: only a real change lays the pages out again.
  const key = JSON.stringify([doc, template, settings]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by content on purpose (the JSON key stands for doc, template and settings)
  const snapshot = useMemo<Snapshot>(() => ({ doc, template, settings }), [key]);
  const measureRef = useRef<HTMLDivElement>(null);
  const { layout, ready } = usePageLayout(snapshot, measureRef);
  const ctx = useMemo(() => renderContextOf(snapshot.doc, snapshot.template, snapshot.settings), [snapshot]);
  // Until the new layout is measured, the current content is drawn on the last layout's pages: a change shows at
  // once, its page breaks follow after the layout debounce.
  const pages = useMemo(() => (layout ? fitPages(layout.pages, snapshot.doc.lines.length) : null), [layout, snapshot]);
  const carried = useMemo(() => (pages ? carriedAmounts(snapshot.doc, pages) : []), [pages, snapshot]);

  // Ready once the pages' own images (the logo) are drawn too: the PDF is taken then.
  const articleRef = useRef<HTMLElement>(null);
  useLayoutEffect(() => (articleRef.current ? markPrintPath(articleRef.current) : undefined), []);
  const [painted, setPainted] = useState<Layout | null>(null);
  useEffect(() => {
    const root = articleRef.current;
    if (!layout || !root) return;
    let cancelled = false;
    void imagesSettled(root).then(() => !cancelled && setPainted(layout));
    return () => {
      cancelled = true;
    };
  }, [layout]);
  const done = ready && painted === layout;

  const notify = useRef(onPaginated);
  notify.current = onPaginated;
  const count = layout?.pages.length ?? 0;
  useEffect(() => {
    if (done) notify.current?.(count);
  }, [done, count]);

  return (
    <>
      {/* Not hoisted: the print rules exist only while pages are shown, so printing another screen is unaffected. */}
      <style>{PRINT_CSS}</style>
      <article
        aria-label="Aperçu du document"
        ref={articleRef}
        aria-busy={!done}
        data-document-pages=""
        data-render-ready={done ? 'true' : 'false'}
        data-render-key={renderKey}
        data-pages={count || undefined}
        style={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: PAGE_GAP * scale,
          width: PAGE_WIDTH * scale,
          margin: '0 auto',
        }}
      >
        {pages ? (
          pages.map((page, i) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: a page is its position (page 1, 2…): the layout only appends or drops pages at the end
              key={i}
              data-page-box=""
              style={{
                width: PAGE_WIDTH * scale,
                height: PAGE_HEIGHT * scale,
                flex: 'none',
                boxShadow: '0 1px 3px rgba(16,24,40,.12), 0 4px 14px rgba(16,24,40,.08)',
                background: 'white',
              }}
            >
              <div
                data-page-scale=""
                style={{
                  width: PAGE_WIDTH,
                  height: PAGE_HEIGHT,
                  transform: scale === 1 ? undefined : `scale(${scale})`,
                  transformOrigin: 'top left',
                }}
              >
                <Page ctx={ctx} layout={page} index={i} count={pages.length} carried={defined(carried[i], 'carried[i]')} />
              </div>
            </div>
          ))
        ) : (
          <div
            data-page-box=""
            style={{
              width: PAGE_WIDTH * scale,
              height: PAGE_HEIGHT * scale,
              background: 'white',
              boxShadow: '0 1px 3px rgba(16,24,40,.12)',
            }}
          />
        )}
      </article>
      <MeasureArea ctx={ctx} measureRef={measureRef} />
    </>
  );
}
