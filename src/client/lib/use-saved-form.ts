import { useEffect, useState } from 'react';
import { useUnsavedGuard } from './use-unsaved-guard';

/**
 * A settings form over what the server holds: it starts from the saved values once they arrive, is 'dirty' (the
 * unsaved-changes flag) while it differs from them, and asks before leaving while dirty.
 */
export function useSavedForm<T>(current: T | null) {
  const [form, setForm] = useState<T | null>(null);
  useEffect(() => {
    if (current && form === null) setForm(current);
  }, [current, form]);
  const dirty = form !== null && current !== null && JSON.stringify(form) !== JSON.stringify(current);
  useUnsavedGuard(dirty);
  return { form, setForm, dirty };
}
