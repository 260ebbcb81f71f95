import { useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import type { DocumentTemplate } from '../../../../shared/schemas/template';
import { trpc } from '../../../trpc';
import { showMessage } from '../../../stores/snackbar';
import { useUnsavedGuard } from '../../../lib/use-unsaved-guard';
import { useActionGuard } from '../../../lib/use-action-guard';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs } from '../../../components/ui/tabs';
import { SettingsActions, SettingsFrame, settingsCard } from '../settings-frame';
import { designer, loadDraft } from './designer-store';
import { ErrorsContext } from './fields';
import { LayoutSection } from './layout-section';
import { PresetsStrip } from './presets-strip';
import type { DraftCheck, SectionId } from './validation';
import { type DesignerCheck, loadDraftCheck, useDraftCheck } from './draft-check';
import { defined } from '../../../../shared/defined';
import { missingMandatoryParts } from '../../../../shared/template-mandatory';
import { numberingCollisions } from '../../../../shared/numbering-collisions';
import { type LazyPage, lazyPage, useLazyComponent } from '../../../lib/lazy-page';
import { whenIdle } from '../../../lib/when-idle';
import { CHUNK_ERROR_TEXT, CHUNK_PART_ERROR_TITLE, LazyBoundary, PageSpinner } from '../../../components/page-loading';

const styles = {
  // Side by side from 1280 px: the form on the left, the pages on the right, each scrolling on its own.
  layout: css({
    display: 'grid',
    gap: '5',
    alignItems: 'start',
    gridTemplateColumns: {
      base: 'minmax(0, 1fr)',
      xl: 'minmax(0, 1fr) minmax(320px, 44%)',
    },
  }),
  preview: css({
    xl: {
      position: 'sticky',
      top: '20',
      maxH: 'calc(100dvh - 6rem)',
      overflowY: 'auto',
    },
  }),
  actions: css({
    position: 'sticky',
    bottom: '0',
    bg: 'bg.surface',
    zIndex: '1',
    mx: { base: '-4', md: '-6' },
    px: { base: '4', md: '6' },
    pb: '1',
    borderBottomRadius: 'card',
  }),
  mandatory: css({ fontSize: 'sm', color: 'warning', mt: '3', pl: '4', listStyleType: 'disc' }),
};

const SECTIONS: { value: SectionId; label: string }[] = [
  { value: 'numbering', label: 'Numérotation' },
  { value: 'texts', label: 'Textes prédéfinis' },
  { value: 'layout', label: 'Mise en page' },
  { value: 'elements', label: 'Éléments' },
  { value: 'table', label: 'Tableau' },
  { value: 'styles', label: 'Styles' },
];

type LazySectionId = Exclude<SectionId, 'layout'>;

// The page opens on « Mise en page »; the other panels (a third of the page's code with their editors) come
// in their own chunks, downloaded when the browser is idle or on hover or focus of their tab.
const LAZY_SECTIONS = {
  numbering: lazyPage(
    () => import('./numbering-section'),
    (m) => m.NumberingSection,
  ),
  texts: lazyPage(
    () => import('./texts-section'),
    (m) => m.TextsSection,
  ),
  elements: lazyPage(
    () => import('./elements-section'),
    (m) => m.ElementsSection,
  ),
  table: lazyPage(
    () => import('./table-section'),
    (m) => m.TableSection,
  ),
  styles: lazyPage(
    () => import('./styles-section'),
    (m) => m.StylesSection,
  ),
} satisfies Record<LazySectionId, { preload: () => Promise<unknown> }>;

// The preview draws the document with the renderer the PDFs use (its own chunk, as large as the form's): the form
// shows first, the pages beside it as soon as their code is in.
const LAZY_PREVIEW = lazyPage(
  () => import('./preview-pane'),
  (m) => m.PreviewPane,
);

/**
 * A lazy panel: drawn at once when downloaded, else with a spinner in its place for the time it takes. The panel's
 * component is swapped for the downloaded one when the download ends, while it still suspends (useLazyComponent): read
 * at a later render, the swap remounted a panel already drawn and lost its state (the preview's full width, its focus).
 */
function LazySection<P extends object>({ section, ...props }: { section: LazyPage<P> } & P) {
  const Panel = useLazyComponent(section);
  return (
    <LazyBoundary fallback={<PageSpinner height={240} />}>
      <Panel {...(props as unknown as P)} />
    </LazyBoundary>
  );
}

/** What the server would refuse in a valid template, said before saving. */
function refusals(check: DraftCheck) {
  if (!check.valid) return { missing: [], collisions: [] };
  return {
    // What the draft would drop from invoices and credit notes.
    missing: missingMandatoryParts(check.valid).map((m) => m.message),
    // Two series that could give the same number (CGI art. 242 nonies A), said in the Numérotation tab.
    collisions: numberingCollisions(check.valid.numbering).map((c) => c.message),
  };
}

/**
 * The draft's verdict for a save: the one drawn, or, for a draft changed before the check's code came, the check run
 * now on the latest draft. Undefined when that code cannot come.
 */
async function judged(check: DesignerCheck): Promise<DraftCheck | undefined> {
  if (!check.pending) return check;
  const checkDraft = await loadDraftCheck();
  return checkDraft?.(designer.draft);
}

/** Paramètres → Apparence: the document template designer, with the sample document redrawn live beside it. */
export function DocumentSettingsPage() {
  const utils = trpc.useUtils();
  const saved = trpc.settings.get.useQuery({ key: 'document' }, { staleTime: 0 });
  const current = saved.data && 'data' in saved.data ? (saved.data.data as DocumentTemplate) : null;
  // A fresh draft on every visit (what another visit left unsaved was already declined by the leave guard), taken from
  // the saved template by the first render that has it, before the store is read: taken by an effect, the designer
  // drew and painted its spinner first, then the form one commit later (on a fresh load, after the frame's paint).
  const visitStarted = useRef(false);
  if (!visitStarted.current) {
    visitStarted.current = true;
    loadDraft(null);
  }
  if (current && !designer.draft) loadDraft(current);
  const snap = useSnapshot(designer);
  const [section, setSection] = useState<SectionId>('layout');
  useEffect(() => whenIdle(() => Object.values(LAZY_SECTIONS).forEach((s) => void s.preload())), []);
  useEffect(() => () => loadDraft(null), []);

  const dirty = snap.draft !== null && current !== null && JSON.stringify(snap.draft) !== JSON.stringify(current);
  useUnsavedGuard(dirty);
  const check = useDraftCheck(snap.draft as DocumentTemplate | null, current, dirty);
  const { missing, collisions } = useMemo(() => refusals(check), [check]);
  const lastValid = useRef<DocumentTemplate | null>(null);
  if (check.valid) lastValid.current = check.valid;

  const save = trpc.settings.update.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      // The same procedure saves the application settings without a key; with `key: 'document'` it answers the template.
      if ('currency_format' in answer.data) return;
      utils.settings.get.setData({ key: 'document' }, { data: answer.data });
      loadDraft(answer.data);
    },
  });

  // One save at a time, the check's download included.
  const guard = useActionGuard();

  if (!snap.draft || !lastValid.current) {
    return (
      <SettingsFrame>
        {saved.isError ? <p>La mise en page n’a pas pu être chargée.</p> : <Spinner label="Chargement de la mise en page" />}
      </SettingsFrame>
    );
  }

  async function submit() {
    const verdict = await judged(check);
    if (!verdict) {
      showMessage(`${CHUNK_PART_ERROR_TITLE}. ${CHUNK_ERROR_TEXT}`, 400);
      return;
    }
    if (!verdict.valid) {
      showMessage(verdict.messages, 400);
      if (!verdict.sections.has(section)) setSection(defined(SECTIONS.find((s) => verdict.sections.has(s.value))).value);
      return;
    }
    const refused = refusals(verdict);
    if (refused.missing.length > 0 || refused.collisions.length > 0) {
      showMessage([...refused.missing, ...refused.collisions], 400);
      if (refused.collisions.length > 0) setSection('numbering');
      return;
    }
    await save.mutateAsync({ key: 'document', data: verdict.valid });
  }

  const content: Record<SectionId, React.ReactNode> = {
    numbering: <LazySection section={LAZY_SECTIONS.numbering} collisions={collisions} />,
    texts: <LazySection section={LAZY_SECTIONS.texts} />,
    layout: <LayoutSection />,
    elements: <LazySection section={LAZY_SECTIONS.elements} invalidAreas={check.areas} />,
    table: <LazySection section={LAZY_SECTIONS.table} />,
    styles: <LazySection section={LAZY_SECTIONS.styles} />,
  };

  return (
    <SettingsFrame>
      <div className={styles.layout}>
        <section className={settingsCard} aria-label="Réglages de l’apparence">
          <PresetsStrip />
          <ErrorsContext.Provider value={check.byPath}>
            <Tabs
              label="Sections de l’apparence"
              value={section}
              onChange={setSection}
              items={SECTIONS.map((s) => ({
                ...s,
                invalid: check.sections.has(s.value) || (s.value === 'numbering' && collisions.length > 0),
                content: content[s.value],
                onIntent: s.value === 'layout' ? undefined : () => void LAZY_SECTIONS[s.value as LazySectionId].preload(),
              }))}
            />
          </ErrorsContext.Provider>
          {missing.length > 0 && (
            <ul className={styles.mandatory} data-testid="template-mandatory" aria-live="polite">
              {missing.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
          <div className={styles.actions}>
            <SettingsActions dirty={dirty} saving={save.isPending} onUndo={() => loadDraft(current)} onSave={() => void guard(submit)} />
          </div>
        </section>
        <div className={styles.preview}>
          <LazySection section={LAZY_PREVIEW} template={lastValid.current} stale={!check.valid && !check.pending} />
        </div>
      </div>
    </SettingsFrame>
  );
}
