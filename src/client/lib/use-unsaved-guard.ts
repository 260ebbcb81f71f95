import { useEffect } from 'react';
import { proxy } from 'valtio';
import { confirm } from '../stores/confirm';

/** The settings screen's 'unsaved changes' flag, set while edited and cleared after loading or saving. */
export const unsaved = proxy({ dirty: false });

const LEAVE_QUESTION = 'Vos modifications ne sont pas enregistrées. Quitter quand même ?';

/**
 * While `dirty`: the browser asks before closing or reloading the tab, and an in-app link asks before leaving
 * (a capture-phase listener sees the click before the router does).
 */
export function useUnsavedGuard(dirty: boolean) {
  useEffect(() => {
    unsaved.dirty = dirty;
    if (!dirty) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as HTMLElement | null)?.closest('a[href]');
      // Links marked data-keeps-form stay on the same unsaved form (e.g. the new document's Créer ⇄ Aperçu tabs).
      if (!link || link.getAttribute('href')?.startsWith('#') || link.hasAttribute('data-keeps-form') || event.defaultPrevented) return;
      event.preventDefault();
      event.stopPropagation();
      void confirm(LEAVE_QUESTION, { title: 'Modifications non enregistrées', confirmLabel: 'Quitter' }).then((leave) => {
        if (!leave) return;
        unsaved.dirty = false;
        window.removeEventListener('click', onClick, true);
        (link as HTMLAnchorElement).click();
      });
    };
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('click', onClick, true);
      unsaved.dirty = false;
    };
  }, [dirty]);
}
