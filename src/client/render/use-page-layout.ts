import { useEffect, useRef, useState, type RefObject } from 'react';
import { paginate, type PageLayout } from '../../shared/pagination';
import type { AppSettings } from '../../shared/schemas/settings';
import type { DocumentTemplate } from '../../shared/schemas/template';
import { fontsSettled, imagesSettled, readMeasurements } from './measure';
import type { RenderDocument } from './types';

/** SPEC §9 layout debounce: a change is laid out again once typing pauses. */
export const LAYOUT_DEBOUNCE_MS = 500;

export interface Snapshot {
  doc: RenderDocument;
  template: DocumentTemplate;
  settings: AppSettings;
}
export interface Layout {
  snapshot: Snapshot;
  epoch: number;
  pages: PageLayout[];
}

function layoutOf(root: HTMLElement, { template }: Snapshot): PageLayout[] {
  const m = readMeasurements(root);
  const t = template;
  return paginate({
    rows: m.rows,
    header: m.header,
    followingHeader: m.followingHeader,
    footer: m.footer,
    tableHeader: m.tableHeader,
    totals: m.totals,
    margins: { first: t.margins.first_page, following: t.margins.following_pages },
    showSubtotal: t.table.show_subtotal,
    showSubtotalPrevious: t.table.show_subtotal_previous,
  });
}

/**
 * Lays the document out in an offscreen pass at scale 1, measures it, and hands the heights to the shared
 * paginate(). Again after a change (debounced), when fonts finish loading, or when asked.
 */
export function usePageLayout(snapshot: Snapshot, measureRef: RefObject<HTMLDivElement | null>) {
  const [layout, setLayout] = useState<Layout | null>(null);
  const [epoch, setEpoch] = useState(0);
  const laidOut = useRef(false);

  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(
      async () => {
        const root = measureRef.current;
        if (!root) return;
        root.getBoundingClientRect(); // lay out first, so the fonts it uses start loading
        await fontsSettled(snapshot.template.font_family);
        await imagesSettled(root);
        if (cancelled) return;
        laidOut.current = true;
        setLayout({ snapshot, epoch, pages: layoutOf(root, snapshot) });
      },
      laidOut.current ? LAYOUT_DEBOUNCE_MS : 0,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [snapshot, epoch, measureRef]);

  useEffect(() => {
    const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
    if (!fonts) return;
    const again = () => setEpoch((e) => e + 1);
    fonts.addEventListener('loadingdone', again);
    return () => fonts.removeEventListener('loadingdone', again);
  }, []);

  return { layout, ready: layout !== null && layout.snapshot === snapshot && layout.epoch === epoch };
}
