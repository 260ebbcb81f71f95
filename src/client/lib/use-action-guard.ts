import { useCallback, useRef } from 'react';

/**
 * "nothing doubled": one user action at a time. The button is disabled by its mutation's pending state,
 * but that state reaches the screen only at the next render; a second click before it is ignored here.
 */
export function useActionGuard(): (action: () => Promise<unknown>) => Promise<void> {
  const busy = useRef(false);
  return useCallback(async (action) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await action();
    } catch {
      // The mutation cache already showed the error (src/client/trpc.ts).
    } finally {
      busy.current = false;
    }
  }, []);
}
