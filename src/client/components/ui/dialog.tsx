import { type ComponentType, useEffect, useState } from 'react';
import { DialogChunkErrorNotice } from '../page-loading';
import type { DialogProps } from './ark-dialog';
import { arkPart, downloadPart, useArkPart } from '../../lib/lazy-page';

export type { DialogProps };

// A page's dialogs are closed when it first draws, and Ark's dialog machinery (focus trap, dismissal) is a
// good part of a page's code. It downloads when the browser is idle, and a dialog opened before that waits for it.
const ark = arkPart(
  () => import('./ark-dialog'),
  (m) => m.ArkDialogBox,
);

/** Ark's dialog (focus trap, Escape, aria) styled once (ark-dialog.tsx); nothing is drawn before it first opens. */
export function Dialog(props: DialogProps) {
  // Chosen when it first opens: the component itself if downloaded (opens in this very render, as before the split:
  // a dialog opened as another closes must not lag a tick behind its focus moves), else once its download ends. Kept.
  const loaded = useArkPart(ark);
  const [Box, setBox] = useState<ComponentType<DialogProps> | null>(() => (props.open ? (loaded ?? null) : null));
  const [failed, setFailed] = useState(false);
  if (props.open && !Box && loaded) setBox(() => loaded);
  const waiting = props.open && !Box;
  useEffect(() => {
    if (!waiting) return setFailed(false);
    let current = true;
    void downloadPart(ark).then((component) => {
      if (!current) return;
      if (component) setBox(() => component);
      else setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [waiting]);
  // The code could not come: said over the page; dismissed, the dialog counts as closed and the next opening tries again.
  if (waiting) return failed ? <DialogChunkErrorNotice onDismiss={props.onClose} /> : null;
  if (!Box) return null;
  // Once opened it stays mounted: Ark unmounts its content when closed (`unmountOnExit`) after the closing animation.
  return <Box {...props} />;
}
