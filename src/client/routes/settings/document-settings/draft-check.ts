import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { DocumentTemplate } from '../../../../shared/schemas/template';
import { whenIdle } from '../../../lib/when-idle';
import type { DraftCheck } from './validation';

type CheckDraft = (draft: unknown) => DraftCheck;

// The template's schema (and zod with it) is a good third of the designer's first load, and the saved template it
// would check has already passed the server's: the form draws without it, and it comes when the browser is idle or at
// the first change, whichever is first.
let loaded: CheckDraft | undefined;
let loading: Promise<CheckDraft | undefined> | undefined;
const listeners = new Set<() => void>();

/** The draft's check once downloaded; undefined if its code could not come (the next call tries again). */
export function loadDraftCheck(): Promise<CheckDraft | undefined> {
  loading ??= import('./validation').then(
    (module) => {
      loaded = module.checkDraft;
      for (const listener of listeners) listener();
      return loaded;
    },
    () => {
      loading = undefined;
      return undefined;
    },
  );
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The draft's check, or `pending` while a changed draft waits for the check's code (neither valid nor refused yet). */
export type DesignerCheck = DraftCheck & { pending?: true };

/** Nothing to say about a template: valid as the server saved it, or, changed, not judged yet. */
const unchecked = (saved: DocumentTemplate | null, changed: boolean): DesignerCheck => ({
  valid: changed ? null : saved,
  byPath: new Map(),
  messages: [],
  sections: new Set(),
  areas: new Set(),
  ...(changed ? { pending: true } : {}),
});

/**
 * The draft judged by the shared schema as the server will (validation.ts). Until that code is in, an unchanged draft
 * is the saved template, valid; a changed one waits for its verdict, asked for at once.
 */
export function useDraftCheck(draft: DocumentTemplate | null, saved: DocumentTemplate | null, changed: boolean): DesignerCheck {
  const checkDraft = useSyncExternalStore(subscribe, () => loaded);
  useEffect(() => {
    if (checkDraft) return undefined;
    if (changed) {
      void loadDraftCheck();
      return undefined;
    }
    return whenIdle(() => void loadDraftCheck());
  }, [checkDraft, changed]);
  return useMemo(() => (checkDraft ? checkDraft(draft) : unchecked(saved, changed)), [checkDraft, draft, changed, saved]);
}
