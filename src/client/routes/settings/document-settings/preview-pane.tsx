import { useEffect, useMemo, useRef, useState } from 'react';
import { css, cx } from '../../../../../styled-system/css';
import { DOCUMENT_TYPES, type DocumentType } from '../../../../shared/document-types';
import { defaultAppSettings, type AppSettings } from '../../../../shared/schemas/settings';
import type { DocumentTemplate } from '../../../../shared/schemas/template';
import { formatCustomerNumber, formatDocumentNumber } from '../../../../shared/numbering';
import { TEMPLATE_TYPE_LABELS } from '../../../../shared/template-labels';
import { DocumentPages } from '../../../render/document-pages';
import { sampleDocument } from '../../../render/sample-document';
import { sellerOf } from '../../../render/build-parts';
import { toRenderDocument } from '../../../render/to-render-document';
import type { RenderDocument } from '../../../render/types';
import { trpc } from '../../../trpc';
import { Button } from '../../../components/ui/button';
import { MaximizeIcon, MinimizeIcon } from '../../../components/icons';
import { CheckField, SelectField } from './fields';
import { useDebounced } from '../../../lib/use-debounced';
import { plural } from '../../../../shared/french';

/** A4 width at 96 dpi, and the largest scale the side column shows it at (full width: life size and a little more). */
const A4_WIDTH = 794;
const MAX_SCALE = 0.6;
const MAX_FULL_SCALE = 1.2;
/** Typing in a field re-renders the pages at most this often. */
const DEBOUNCE_MS = 250;
const TYPE_OPTIONS = DOCUMENT_TYPES.map((t) => ({
  value: t,
  label: TEMPLATE_TYPE_LABELS[t],
}));

const styles = {
  pane: css({ display: 'flex', flexDirection: 'column', gap: '3', minW: '0' }),
  // Over the whole window, above the menu and the bar: the pages at a readable size.
  full: css({
    position: 'fixed',
    inset: '0',
    zIndex: 'modal',
    bg: 'bg.canvas',
    p: { base: '3', md: '6' },
    overflowY: 'auto',
  }),
  bar: css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap' }),
  grow: css({ flex: '1' }),
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

/** The identity the organisation typed in « Infos de l'entreprise »: a name alone is the registration's, not yet one. */
const hasIdentity = (org: { name: string; siret?: string; address?: { line1?: string } } | undefined) =>
  Boolean(org?.name && (org.siret || org.address?.line1));

/**
 * The organisation's own latest document of the chosen type (its logo, its identity, its customer and lines), drawn
 * by the one renderer with the draft as it is being edited, so every change shows on what its customers will
 * receive. Without such a document, the sample, under the organisation's own name and logo once it has typed them.
 * `template` is the last valid draft: an invalid field leaves the pages as they were, with a notice.
 */
export function PreviewPane({ template, stale }: { template: DocumentTemplate; stale: boolean }) {
  const settingsQuery = trpc.settings.get.useQuery(undefined, {
    staleTime: 60_000,
  });
  const settings: AppSettings = settingsQuery.data && 'currency_format' in settingsQuery.data ? settingsQuery.data : defaultAppSettings();
  const [type, setType] = useState<DocumentType>('invoice');
  const [long, setLong] = useState(false);
  const [full, setFull] = useState(false);
  const [pages, setPages] = useState<number | null>(null);
  const live = useDebounced(template, DEBOUNCE_MS);
  const org = trpc.organization.get.useQuery(undefined, { staleTime: 60_000 });
  const latestRow = trpc.documents.list.useQuery({ type, per_page: 1 }, { staleTime: 60_000 }).data?.data[0];
  const latest = trpc.documents.get.useQuery({ id: latestRow?.id ?? 0 }, { enabled: latestRow !== undefined && !long, staleTime: 60_000 });
  const own = !long && latestRow !== undefined ? latest.data : undefined;
  const profile = hasIdentity(org.data) ? org.data : undefined;

  // The draft's own numbers and predefined texts, so those settings show too (a number already given stays).
  const doc = useMemo((): RenderDocument => {
    const texts = live.texts[type];
    if (own) {
      const rendered = toRenderDocument({ document: own }, { profile: org.data ?? null, settings });
      return {
        ...rendered,
        number: rendered.number ?? formatDocumentNumber(live.numbering[type], 42, { date: rendered.date, currency: rendered.currency }),
        header: rendered.header || texts.header,
        footer: rendered.footer || texts.footer,
      };
    }
    const sample = sampleDocument({ type, lineCount: long ? 40 : undefined });
    const seller = profile ? sellerOf(profile) : null;
    return {
      ...sample,
      seller: seller ?? sample.seller,
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
  }, [type, long, live, own, org.data, profile, settings]);

  const stage = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const [scale, setScale] = useState(0.5);
  const maxScale = full ? MAX_FULL_SCALE : MAX_SCALE;
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      const width = (entry?.contentRect.width ?? 0) - 2;
      if (width > 0) setScale(Math.min(maxScale, Math.floor((width / A4_WIDTH) * 100) / 100));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [maxScale]);

  // Full width: Échap leaves it, the page behind does not scroll, and the focus stays on the button that leaves it.
  useEffect(() => {
    if (!full) return;
    toggle.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        setFull(false);
      }
    };
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.body.style.overflow = overflow;
      toggle.current?.focus();
    };
  }, [full]);

  const source = own
    ? `Votre dernier document de ce type${own.number ? `\u00a0: ${own.number}` : ' (brouillon)'}`
    : long
      ? 'Exemple sur plusieurs pages'
      : `Exemple\u00a0: aucun document de ce type pour l’instant${profile ? ', sous votre nom' : ''}`;

  const body = (
    <>
      <div className={styles.bar}>
        <div className={css({ minW: '40' })}>
          <SelectField label="Document d’exemple" value={type} options={TYPE_OPTIONS} onChange={setType} />
        </div>
        <CheckField label="Sur plusieurs pages" checked={long} onChange={setLong} />
        <span className={styles.note} aria-live="polite" data-testid="preview-pages">
          {pages === null ? '' : plural(pages, 'page')}
        </span>
        <span className={styles.grow} />
        <Button ref={toggle} variant="outline" size="sm" aria-pressed={full} onClick={() => setFull(!full)} data-testid="preview-full">
          {full ? <MinimizeIcon size={16} /> : <MaximizeIcon size={16} />}
          {full ? 'Réduire l’aperçu (Échap)' : 'Aperçu en grand'}
        </Button>
      </div>
      <p className={styles.note} data-testid="preview-source">
        {source}
      </p>
      {stale && <p className={styles.stale}>Un champ est à corriger : l’aperçu montre la dernière version valide.</p>}
      <div ref={stage} className={styles.stage} data-testid="template-preview">
        <DocumentPages doc={doc} template={live} settings={settings} scale={scale} onPaginated={setPages} />
      </div>
    </>
  );
  return full ? (
    <div role="dialog" aria-modal="true" aria-label="Aperçu en pleine largeur" className={cx(styles.pane, styles.full)} data-full>
      {body}
    </div>
  ) : (
    <aside className={styles.pane} aria-label="Aperçu en direct">
      {body}
    </aside>
  );
}
