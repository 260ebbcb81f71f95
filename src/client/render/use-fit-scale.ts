import { useCallback, useRef, useState } from 'react';
import { PAGE_WIDTH } from './page-parts';

/**
 * The scale at which an A4 page fills the width of the element given the returned ref (at most `max`), following
 * its resizes. A callback ref, so an element that mounts later (after a spinner) is observed too.
 */
export function useFitScale(max = 1): [(el: HTMLElement | null) => void, number] {
  const [scale, setScale] = useState(max);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback(
    (el: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!el) return;
      observer.current = new ResizeObserver(([entry]) => {
        const width = entry?.contentRect.width ?? 0;
        if (width > 0) setScale(Math.min(max, Math.floor((width / PAGE_WIDTH) * 100) / 100));
      });
      observer.current.observe(el);
    },
    [max],
  );
  return [ref, scale];
}
