import { type ComponentType, useEffect, useState } from 'react';
import { lazyPage } from '../../lib/lazy-page';
import { whenIdle } from '../../lib/when-idle';
import { LazyBoundary } from '../page-loading';
import type { DialogProps } from './ark-dialog';

export type { DialogProps };

// Issue 22: a page's dialogs are closed when it first draws, and Ark's dialog machinery (focus trap, dismissal) is a
// good part of a page's code. It downloads when the browser is idle, and a dialog opened before that waits for it.
const ark = lazyPage(
  () => import('./ark-dialog'),
  (m) => m.ArkDialogBox,
);

/** Ark's dialog (focus trap, Escape, aria) styled once (ark-dialog.tsx); nothing is drawn before it first opens. */
export function Dialog(props: DialogProps) {
  // Chosen when it first opens: the component itself if downloaded (opens in this very render, as before the split:
  // a dialog opened as another closes must not lag a tick behind its focus moves), else the lazy one. Kept after.
  const pick = (): ComponentType<DialogProps> => ark.loaded?.() ?? ark.Component;
  const [Box, setBox] = useState<ComponentType<DialogProps> | null>(() => (props.open ? pick() : null));
  if (props.open && !Box) setBox(() => pick());
  useEffect(() => whenIdle(() => void ark.preload()), []);
  if (!Box) return null;
  // Once opened it stays mounted: Ark unmounts its content when closed (`unmountOnExit`) after the closing animation.
  return (
    <LazyBoundary fallback={null}>
      <Box {...props} />
    </LazyBoundary>
  );
}
