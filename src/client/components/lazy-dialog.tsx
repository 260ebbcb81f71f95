import { type ComponentType, useEffect, useState } from 'react';
import { DialogChunkErrorNotice } from './page-loading';
import { downloadPart, lazyPage, useArkPart } from '../lib/lazy-page';

interface DialogLike {
  open: boolean;
  onClose: () => void;
}

export interface LazyDialog<P extends DialogLike> {
  /** Drawn where the dialog would be: nothing until it first opens, then the dialog itself (kept, for its closing). */
  Dialog: ComponentType<P>;
  /** For the buttons that open it (hover, focus): its code is there by the click. */
  preload: () => void;
  /** The same, as props to spread on a button that opens it. */
  opener: { onPointerEnter: () => void; onFocus: () => void };
}

/**
 * A page's form dialog in its own chunk: a list page's first load is the list it shows, not the form (its fields, its
 * schema and zod with it). The code comes when the browser is idle, on hover or focus of a button that opens it
 * (`preload`), or when it opens, whichever is first; a dialog opened before waits for it, and says so if it cannot come.
 */
export function lazyDialog<M, P extends DialogLike>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): LazyDialog<P> {
  const part = lazyPage(load, pick);
  function Dialog(props: P) {
    const Loaded = useArkPart(part);
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    const [failed, setFailed] = useState(false);
    const waiting = props.open && !Loaded;
    useEffect(() => {
      if (!waiting) return setFailed(false);
      let current = true;
      void downloadPart(part).then((component) => current && !component && setFailed(true));
      return () => {
        current = false;
      };
    }, [waiting]);
    if (Loaded) return opened ? <Loaded {...props} /> : null;
    // The code could not come: said over the page; dismissed, the dialog counts as closed and the next opening tries again.
    return waiting && failed ? <DialogChunkErrorNotice onDismiss={props.onClose} /> : null;
  }
  const preload = () => void part.preload();
  return { Dialog, preload, opener: { onPointerEnter: preload, onFocus: preload } };
}
