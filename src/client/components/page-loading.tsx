import {
  Component,
  type ComponentType,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
  Suspense,
  useEffect,
  useRef,
  useState,
} from 'react';
import { downloadPart, type LazyPage } from '../lib/lazy-page';
import { css, cx } from '../../../styled-system/css';
import { Button } from './ui/button';
import { Spinner } from './ui/spinner';

export const CHUNK_ERROR_TITLE = 'Cette page n’a pas pu être chargée';
/** A control on a page that did load (a Select's list, a menu, a dialog) whose code could not come. */
export const CHUNK_PART_ERROR_TITLE = 'Une partie de l’application n’a pas pu être chargée';
export const CHUNK_ERROR_TEXT =
  'Une nouvelle version de Facturier a peut-être été installée depuis l’ouverture de cet onglet, ou la connexion a été interrompue.';

const styles = {
  // Tall enough that the page arriving does not push the footer of the layout up and down.
  holder: css({ minH: '50vh', display: 'grid', placeItems: 'center', color: 'accent.default' }),
  notice: css({
    p: '6',
    bg: 'bg.surface',
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'card',
    boxShadow: 'card',
    display: 'flex',
    flexDirection: 'column',
    gap: '3',
    alignItems: 'flex-start',
  }),
  // In the place of the page that did not come.
  inPage: css({ maxW: '420px', mx: 'auto', my: '10' }),
  // Over a page that did come, where the snackbar shows: no field moves, no scrolling box clips it.
  floating: css({
    position: 'fixed',
    left: '50%',
    bottom: '6',
    transform: 'translateX(-50%)',
    zIndex: 'toast',
    w: 'min(420px, calc(100vw - 32px))',
    // Not the look of whatever holds the control (a bold or centred table head).
    color: 'fg.default',
    textAlign: 'left',
    fontWeight: 'normal',
    'body:has([data-sticky-bottom-bar]) &': { bottom: '20' },
  }),
  title: css({ fontWeight: '700', fontSize: 'md' }),
  text: css({ color: 'fg.muted', fontSize: 'sm' }),
};

/** The whole window's spinner: the session being checked, the shell downloading. */
export function FullPageSpinner() {
  return (
    <div className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', color: 'accent.default' })}>
      <Spinner size={32} label="Chargement" />
    </div>
  );
}

/**
 * The place of a page whose code is still downloading: a spinner where the page will be, in the layout's frame.
 * `height` keeps a small frame (the sign-in card) at about the size of the form that comes, so nothing jumps.
 */
export function PageSpinner({ height }: { height?: number }) {
  return (
    <div className={styles.holder} style={height ? { minHeight: height } : undefined}>
      <Spinner size={28} label="Chargement de la page" />
    </div>
  );
}

/** Chrome, Firefox and Safari word a failed `import()` differently; Vite's preload helper adds its own. */
const CHUNK_ERROR = /dynamically imported module|Importing a module script failed|Unable to preload|Loading chunk/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}

/**
 * Code that could not be downloaded, and the way out: a reload. A whole page's (`part` unset) stands in its place; a
 * part's (a Select's list, a ⋮ menu, a dialog: select.tsx, action-menu.tsx, dialog.tsx) floats over the page that
 * did come.
 */
export function ChunkErrorNotice({ part }: { part?: boolean }) {
  return (
    <div role="alert" className={cx(styles.notice, part ? styles.floating : styles.inPage)} data-testid="chunk-error">
      <p className={styles.title}>{part ? CHUNK_PART_ERROR_TITLE : CHUNK_ERROR_TITLE}</p>
      <p className={styles.text}>{CHUNK_ERROR_TEXT}</p>
      <Button onClick={() => window.location.reload()}>Recharger la page</Button>
    </div>
  );
}

/** Marks the holder of a part's notice: an Escape there dismisses the notice, not the dialog around it (ark-dialog.tsx). */
export const PART_FAILURE_ATTRIBUTE = 'data-part-failure';

/**
 * A part whose code may fail to come (a Select's list, a ⋮ menu), asked for by the user's actions. `download` fetches
 * it (retried once, lib/lazy-page.ts) and says when it cannot come; only the latest action's outcome counts: a focus
 * whose download failed just as the network came back must not undo the ArrowDown pressed after it, whose own
 * download succeeds. `holder` goes on the element around the button and the notice, where the notice goes with
 * Escape, or when the focus moves to another field (not on a click on the page's text, which would hide it unread).
 */
export function usePartFailure() {
  const [failed, setFailed] = useState(false);
  const latest = useRef(0);
  const download = <P extends object>(part: LazyPage<P>, then: { loaded?: (component: ComponentType<P>) => void; failed?: () => void }) => {
    const attempt = ++latest.current;
    void downloadPart(part).then((component) => {
      if (attempt !== latest.current) return;
      if (component) then.loaded?.(component);
      else {
        then.failed?.();
        setFailed(true);
      }
    });
  };
  const holder = {
    [PART_FAILURE_ATTRIBUTE]: failed ? '' : undefined,
    onKeyDown: (event: KeyboardEvent) => event.key === 'Escape' && setFailed(false),
    onBlur: (event: FocusEvent) => event.relatedTarget && !event.currentTarget.contains(event.relatedTarget) && setFailed(false),
  };
  return { failed, setFailed, download, holder };
}

/**
 * A dialog whose code could not come: the part's notice over the page, its « Recharger la page » focused (where the
 * dialog would have taken the focus). `onDismiss` closes the dialog, so that opening it again tries the download
 * again: on Escape, as the dialog would have, and on a press outside the notice (that press may be the one opening
 * the dialog again).
 */
export function DialogChunkErrorNotice({ onDismiss }: { onDismiss: () => void }) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    notice.current?.querySelector('button')?.focus();
    const onKeyDown = (event: globalThis.KeyboardEvent) => event.key === 'Escape' && onDismiss();
    const onPointerDown = (event: PointerEvent) => event.target instanceof Node && !notice.current?.contains(event.target) && onDismiss();
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [onDismiss]);
  return (
    <div ref={notice} style={{ display: 'contents' }}>
      <ChunkErrorNotice part />
    </div>
  );
}

/**
 * An old tab after a deploy asks for chunks the server no longer has: instead of a blank page, say so and offer a
 * reload (which fetches the new index.html and its chunks). Other errors go on to whatever handles them.
 */
export class ChunkErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    if (isChunkLoadError(error)) return <ChunkErrorNotice />;
    throw error;
  }
}

/** A lazy page in its frame: the spinner while it downloads, the reload notice if it cannot be downloaded. */
export function LazyBoundary({ children, fallback = <PageSpinner /> }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={fallback}>{children}</Suspense>
    </ChunkErrorBoundary>
  );
}
