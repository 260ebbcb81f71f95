import type { ReactNode } from 'react';
import { Dialog as ArkDialog, Portal } from '@ark-ui/react';
import { css } from '../../../../styled-system/css';
import { iconButton } from '../../../../styled-system/recipes';
import { CloseIcon } from '../icons';
import { PART_FAILURE_ATTRIBUTE } from '../page-loading';

const styles = {
  backdrop: css({ position: 'fixed', inset: '0', bg: 'rgba(10, 12, 16, 0.45)', zIndex: 'overlay' }),
  positioner: css({
    position: 'fixed',
    inset: '0',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    p: '4',
    zIndex: 'modal',
  }),
  content: css({
    bg: 'bg.surface',
    color: 'fg.default',
    borderRadius: 'card',
    boxShadow: 'overlay',
    w: 'full',
    maxH: 'calc(100dvh - 32px)',
    display: 'flex',
    flexDirection: 'column',
    overflow: 'hidden',
    _focusVisible: { outline: 'none' },
  }),
  header: css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', px: '5', pt: '4', pb: '2' }),
  title: css({ fontSize: 'lg', fontWeight: '700' }),
  body: css({ px: '5', py: '2', overflowY: 'auto', flex: '1' }),
  footer: css({ display: 'flex', justifyContent: 'flex-end', gap: '2', px: '5', pt: '3', pb: '4' }),
  close: iconButton(),
};

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
  /** SPEC "persistent": a click outside does not close it (Escape and the close button still do). */
  persistent?: boolean;
  role?: 'dialog' | 'alertdialog';
  showClose?: boolean;
  /** 'right': a full-height sheet on the right edge (SPEC's settings panel). */
  placement?: 'center' | 'right';
  /** Left out of the feedback screenshot (SPEC §4 "screenshot-hidden"). */
  screenshotHidden?: boolean;
  /** Ark's initial focus, when the first focusable element is not the right one. */
  initialFocusEl?: () => HTMLElement | null;
}

const sheet = {
  positioner: css({ position: 'fixed', inset: '0', display: 'flex', justifyContent: 'flex-end', zIndex: 'modal' }),
  content: css({ h: '100dvh', maxH: '100dvh', borderRadius: '0', borderTopLeftRadius: 'card', borderBottomLeftRadius: 'card' }),
};

/**
 * Ark's dialog (focus trap, Escape, aria) styled once; unmounted when closed (STACK.md trap 6). Drawn through
 * `Dialog` (dialog.tsx), which downloads this chunk only when a dialog is about to be needed.
 */
export function ArkDialogBox({
  open,
  onClose,
  title,
  children,
  footer,
  width = 400,
  persistent,
  role = 'dialog',
  showClose = true,
  placement = 'center',
  screenshotHidden,
  initialFocusEl,
}: DialogProps) {
  const hidden = screenshotHidden ? { 'data-screenshot-hidden': '' } : {};
  return (
    <ArkDialog.Root
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      closeOnInteractOutside={!persistent}
      // Focus landing on a dialog's own content is not "outside": Ark reported it so for a dialog that had just
      // opened from a lazily loaded chunk (the login page's « Aider »), which then closed itself at once.
      onFocusOutside={(event) => {
        const target = event.target;
        if (target instanceof Element && target.closest('[data-scope="dialog"][data-part="content"]')) event.preventDefault();
      }}
      // An Escape on a part's notice (a Select whose list could not come) dismisses that notice, not the dialog.
      onEscapeKeyDown={(event) => {
        const target = event.target;
        if (target instanceof Element && target.closest(`[${PART_FAILURE_ATTRIBUTE}]`)) event.preventDefault();
      }}
      role={role}
      initialFocusEl={initialFocusEl}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <ArkDialog.Backdrop className={styles.backdrop} {...hidden} />
        <ArkDialog.Positioner className={placement === 'right' ? sheet.positioner : styles.positioner} {...hidden}>
          <ArkDialog.Content
            className={placement === 'right' ? `${styles.content} ${sheet.content}` : styles.content}
            style={{ maxWidth: width }}
          >
            <div className={styles.header}>
              <ArkDialog.Title className={styles.title}>{title}</ArkDialog.Title>
              {showClose && (
                <ArkDialog.CloseTrigger className={styles.close} aria-label="Fermer">
                  <CloseIcon />
                </ArkDialog.CloseTrigger>
              )}
            </div>
            <div className={styles.body}>{children}</div>
            {footer && <div className={styles.footer}>{footer}</div>}
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
