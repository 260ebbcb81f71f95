import { useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const media = window.matchMedia(query);
      media.addEventListener('change', notify);
      return () => media.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Wide-screen breakpoint. */
export const useIsWide = () => useMediaQuery('(min-width: 960px)');

/** Phones: below this width tables become cards and the editor's buttons move to a bar at the bottom. */
export const PHONE_QUERY = '(max-width: 767px)';
export const useIsPhone = () => useMediaQuery(PHONE_QUERY);

/** Narrow phones: below 600 px an A4 page would shrink under reading size, so documents are reflowed to one column. */
export const NARROW_DOCUMENT_QUERY = '(max-width: 599.98px)';
export const useIsNarrowDocument = () => useMediaQuery(NARROW_DOCUMENT_QUERY);
