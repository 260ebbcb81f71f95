import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

/**
 * List filters live in the URL query (a filtered view survives a reload and can be bookmarked). Setting a value
 * replaces the history entry; an empty value removes the key.
 */
export function useQueryState(): [Record<string, string>, (patch: Record<string, string | number | undefined>) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const values = useMemo(() => Object.fromEntries(new URLSearchParams(search)), [search]);
  const update = useCallback(
    (patch: Record<string, string | number | undefined>) => {
      const next = new URLSearchParams(search);
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined || value === '') next.delete(key);
        else next.set(key, String(value));
      }
      const query = next.toString();
      navigate(query ? `${location}?${query}` : location, { replace: true });
    },
    [search, location, navigate],
  );
  return [values, update];
}
