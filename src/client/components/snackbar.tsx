import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { css, cva } from '../../../styled-system/css';
import { closeSnackbar, snackbar, snackbarTone, SNACKBAR_TIMEOUT_MS } from '../stores/snackbar';
import { CloseIcon } from './icons';
import { withFrenchSpaces } from '../../shared/typography-text';

const box = cva({
  base: {
    position: 'fixed',
    left: '50%',
    bottom: '6',
    transform: 'translateX(-50%)',
    zIndex: 'toast',
    minW: '280px',
    maxW: 'min(560px, calc(100vw - 32px))',
    display: 'flex',
    alignItems: 'flex-start',
    gap: '3',
    px: '4',
    py: '3',
    borderRadius: 'lg',
    boxShadow: 'overlay',
    color: 'white',
    fontSize: 'sm',
    // Above a bar stuck to the bottom of the page (the editor's buttons on phones), never over it.
    'body:has([data-sticky-bottom-bar]) &': { bottom: '20' },
  },
  variants: {
    tone: {
      success: { bg: '#1E7B45' },
      error: { bg: '#C62828' },
      warning: { bg: '#B86200' },
      neutral: { bg: '#1F2328' },
    },
  },
});

/** The page-level snackbar; its messages are announced to screen readers. */
export function Snackbar() {
  const snap = useSnapshot(snackbar);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new message (serial) restarts the timer
  useEffect(() => {
    if (!snap.open) return;
    const timer = setTimeout(closeSnackbar, SNACKBAR_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [snap.open, snap.serial]);

  const tone = snackbarTone(snap.status);
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} aria-live={tone === 'error' ? 'assertive' : 'polite'} data-screenshot-hidden>
      {snap.open && (
        <div className={box({ tone })} data-testid="snackbar" data-tone={tone}>
          <div className={css({ flex: '1', display: 'flex', flexDirection: 'column', gap: '1' })}>
            {snap.messages.map((m) => (
              <span key={m}>{withFrenchSpaces(m)}</span>
            ))}
          </div>
          <button
            type="button"
            onClick={closeSnackbar}
            aria-label="Fermer le message"
            className={css({ cursor: 'pointer', opacity: 0.85, _hover: { opacity: 1 } })}
          >
            <CloseIcon size={18} />
          </button>
        </div>
      )}
    </div>
  );
}
