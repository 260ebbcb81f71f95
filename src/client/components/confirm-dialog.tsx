import { useSnapshot } from 'valtio';
import { css } from '../../../styled-system/css';
import { answerConfirm, confirmState } from '../stores/confirm';
// Already in the overlays' own lazy chunk (app.tsx): Ark's dialog directly, mounted closed before it first opens.
import { ArkDialogBox as Dialog } from './ui/ark-dialog';
import { Button } from './ui/button';

/** 300 px, 'Annuler' / 'Oui'; Escape and the close button answer false. */
export function ConfirmDialog() {
  const snap = useSnapshot(confirmState);
  return (
    <Dialog
      open={snap.open}
      onClose={() => answerConfirm(false)}
      title={snap.title || 'Confirmation'}
      width={snap.width}
      role="alertdialog"
      showClose={false}
      footer={
        <>
          <Button variant="ghost" onClick={() => answerConfirm(false)}>
            {snap.cancelLabel}
          </Button>
          <Button onClick={() => answerConfirm(true)}>{snap.confirmLabel}</Button>
        </>
      }
    >
      <p className={css({ fontSize: 'sm', color: 'fg.muted', lineHeight: '1.5', whiteSpace: 'pre-line' })}>{snap.message}</p>
    </Dialog>
  );
}
