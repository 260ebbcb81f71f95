import { useCallback, useSyncExternalStore } from 'react';

/** The document's fullscreen state, and a toggle for the fullscreen button. */
export function useFullscreen() {
  const active = useSyncExternalStore(
    (notify) => {
      document.addEventListener('fullscreenchange', notify);
      return () => document.removeEventListener('fullscreenchange', notify);
    },
    () => document.fullscreenElement !== null,
    () => false,
  );
  const toggle = useCallback(() => {
    const request = active ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    request.catch((error: unknown) => console.warn('fullscreen refused', error));
  }, [active]);
  return { active, toggle };
}
