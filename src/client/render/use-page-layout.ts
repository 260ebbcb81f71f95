import { useEffect, useRef, useState, type RefObject } from 'react';
import { paginate, type PageLayout } from '../../shared/pagination';
import type { AppSettings } from '../../shared/schemas/settings';
import type { DocumentTemplate } from '../../shared/schemas/template';
import { fontsSettled, imagesSettled, readMeasurements, type Measurements } from './measure';
import type { RenderDocument } from './types';

/** Layout debounce: a change is laid out again once typing pauses. */
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

function layoutOf(m: Measurements, { template }: Snapshot): PageLayout[] {
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
 * paginate(). The first pass waits for the template's fonts (fontsSettled) and runs at once; a change of the document
 * is laid out again once typing pauses (debounced); a font that finishes loading after a pass has measured and changes
 * a measured height is laid out at once (nothing to wait for: no one is typing). A font finishing while a pass is still scheduled or waiting is
 * already seen by that pass, which measures after it: no second layout, so the printer is not kept waiting for one.
 */
export function usePageLayout(snapshot: Snapshot, measureRef: RefObject<HTMLDivElement | null>) {
  const [layout, setLayout] = useState<Layout | null>(null);
  const [epoch, setEpoch] = useState(0);
  /** The snapshot of the last pass that measured: only a different one waits for the debounce. */
  const measured = useRef<Snapshot | null>(null);
  /** A pass is scheduled or waiting for fonts and images: it has not measured yet. */
  const pending = useRef(false);
  /** What the last pass read, to tell whether a font arriving since changed any height. */
  const heights = useRef('');

  useEffect(() => {
    let cancelled = false;
    pending.current = true;
    const timer = setTimeout(
      async () => {
        const root = measureRef.current;
        if (!root) return;
        root.getBoundingClientRect(); // lay out first, so the fonts it uses start loading
        await fontsSettled(snapshot.template.font_family);
        await imagesSettled(root);
        if (cancelled) return;
        pending.current = false;
        measured.current = snapshot;
        const m = readMeasurements(root);
        heights.current = JSON.stringify(m);
        setLayout({ snapshot, epoch, pages: layoutOf(m, snapshot) });
      },
      measured.current && measured.current !== snapshot ? LAYOUT_DEBOUNCE_MS : 0,
    );
    return () => {
      cancelled = true;
      pending.current = false;
      clearTimeout(timer);
    };
  }, [snapshot, epoch, measureRef]);

  useEffect(() => {
    const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
    if (!fonts) return;
    const again = () => {
      if (pending.current) return;
      // Only a font that changed a height lays the pages out again. Printing loads faces of its own (the
      // 500-line PDF was drawn twice, the second time while Chromium printed it); they change nothing measured.
      const root = measureRef.current;
      // Hidden (print media: PRINT_CSS hides the measuring pass) there is nothing to read, nor anything that changed.
      if (root && (root.getClientRects().length === 0 || JSON.stringify(readMeasurements(root)) === heights.current)) return;
      setEpoch((e) => e + 1);
    };
    fonts.addEventListener('loadingdone', again);
    return () => fonts.removeEventListener('loadingdone', again);
  }, [measureRef]);

  return { layout, ready: layout !== null && layout.snapshot === snapshot && layout.epoch === epoch };
}
