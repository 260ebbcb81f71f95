import type { ReactNode } from 'react';
import { Dialog as ArkDialog, Portal } from '@ark-ui/react';
import { dialog, iconButton } from '../../../../styled-system/recipes';
import { CloseIcon } from '../icons';
import { PART_FAILURE_ATTRIBUTE } from '../page-loading';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
  /** A click outside does not close it (Escape and the close button still do). */
  persistent?: boolean;
  role?: 'dialog' | 'alertdialog';
  showClose?: boolean;
  /** 'right': a full-height sheet on the right edge (the settings panel). */
  placement?: 'center' | 'right';
  /** Left out of the feedback screenshot. */
  screenshotHidden?: boolean;
  /** Ark's initial focus, when the first focusable element is not the right one. */
  initialFocusEl?: () => HTMLElement | null;
}

/**
 * Ark's dialog (focus trap, Escape, aria) styled once; unmounted when closed. Drawn through
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
  const styles = dialog({ placement });
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
        <ArkDialog.Positioner className={styles.positioner} {...hidden}>
          <ArkDialog.Content className={styles.content} style={{ maxWidth: width }}>
            <div className={styles.header}>
              <ArkDialog.Title className={styles.title}>{title}</ArkDialog.Title>
              {showClose && (
                <ArkDialog.CloseTrigger className={iconButton()} aria-label="Fermer">
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
