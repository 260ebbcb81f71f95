import { useEffect, useMemo, useRef, useState } from 'react';
import { css } from '../../../../../styled-system/css';
import { DOCUMENT_TYPES, type DocumentType } from '../../../../shared/schemas/document';
import { defaultAppSettings, type AppSettings } from '../../../../shared/schemas/settings';
import type { DocumentTemplate } from '../../../../shared/schemas/template';
import { formatCustomerNumber, formatDocumentNumber } from '../../../../shared/numbering';
import { TEMPLATE_TYPE_LABELS } from '../../../../shared/template-labels';
import { DocumentPages } from '../../../render/document-pages';
import { sampleDocument } from '../../../render/sample-document';
import type { RenderDocument } from '../../../render/types';
import { trpc } from '../../../trpc';
import { CheckField, SelectField } from './fields';
import { useDebounced } from '../../../lib/use-debounced';
import { plural } from '../../../../shared/french';

/** A4 width at 96 dpi, and the largest scale the side column shows it at. */
const A4_WIDTH = 794;
const MAX_SCALE = 0.6;
/** Typing in a field re-renders the pages at most this often. */
const DEBOUNCE_MS = 250;
const TYPE_OPTIONS = DOCUMENT_TYPES.map((t) => ({
  value: t,
  label: TEMPLATE_TYPE_LABELS[t],
}));

const styles = {
  pane: css({ display: 'flex', flexDirection: 'column', gap: '3', minW: '0' }),
  bar: css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap' }),
  stage: css({
    bg: 'bg.muted',
    borderRadius: 'lg',
    p: '3',
    overflow: 'auto',
    display: 'flex',
    justifyContent: 'center',
  }),
  note: css({ fontSize: 'xs', color: 'fg.muted' }),
  stale: css({ fontSize: 'xs', color: 'warning' }),
};

/**
 * The sample invoice drawn by the one renderer with the draft as it is being edited, so every change shows before it
 * is saved. `template` is the last valid draft: an invalid field leaves the pages as they were, with a notice.
 */
export function PreviewPane({ template, stale }: { template: DocumentTemplate; stale: boolean }) {
  const settingsQuery = trpc.settings.get.useQuery(undefined, {
    staleTime: 60_000,
  });
  const settings: AppSettings = settingsQuery.data && 'currency_format' in settingsQuery.data ? settingsQuery.data : defaultAppSettings();
  const [type, setType] = useState<DocumentType>('invoice');
  const [long, setLong] = useState(false);
  const [pages, setPages] = useState<number | null>(null);
  const live = useDebounced(template, DEBOUNCE_MS);

  // The sample with the draft's own numbers and predefined texts, so those settings show too.
  const doc = useMemo((): RenderDocument => {
    const sample = sampleDocument({ type, lineCount: long ? 40 : undefined });
    const texts = live.texts[type];
    return {
      ...sample,
      number: formatDocumentNumber(live.numbering[type], 42, {
        date: sample.date,
        customer_id: formatCustomerNumber(live.customer_numbering, 12),
        currency: sample.currency,
      }),
      customer: sample.customer && {
        ...sample.customer,
        number: formatCustomerNumber(live.customer_numbering, 12),
      },
      header: texts.header || sample.header,
      footer: texts.footer || sample.footer,
    };
  }, [type, long, live]);

  const stage = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0.5);
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      const width = (entry?.contentRect.width ?? 0) - 2;
      if (width > 0) setScale(Math.min(MAX_SCALE, Math.floor((width / A4_WIDTH) * 100) / 100));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <aside className={styles.pane} aria-label="Aperçu en direct">
      <div className={styles.bar}>
        <div className={css({ minW: '40' })}>
          <SelectField label="Document d’exemple" value={type} options={TYPE_OPTIONS} onChange={setType} />
        </div>
        <CheckField label="Sur plusieurs pages" checked={long} onChange={setLong} />
        <span className={styles.note} aria-live="polite" data-testid="preview-pages">
          {pages === null ? '' : plural(pages, 'page')}
        </span>
      </div>
      {stale && <p className={styles.stale}>Un champ est à corriger : l’aperçu montre la dernière version valide.</p>}
      <div ref={stage} className={styles.stage} data-testid="template-preview">
        <DocumentPages doc={doc} template={live} settings={settings} scale={scale} onPaginated={setPages} />
      </div>
    </aside>
  );
}
