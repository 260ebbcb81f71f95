import { proxy, snapshot } from 'valtio';
import { blankLine, newKey, type DocumentDraft, type LineDraft } from '../routes/documents/editor/form-state';

/**
 * The document being edited. It lives outside the editor's components so that {base}/new/add and {base}/new/view
 * (the preview of the unsaved form) show the same document, and switching tabs loses nothing.
 */
export const editor = proxy({
  /** Which document the form holds: 'invoice:new' or 'invoice:42'. */
  key: '',
  form: null as DocumentDraft | null,
  /** The form as loaded or last saved, to know whether there are unsaved changes. */
  saved: '',
  /** The server's version the form was loaded at (its `updated_at`), sent with the save: an old form never overwrites. */
  base: '',
  expanded: [] as string[],
  errors: {} as Record<string, string>,
});

const fingerprint = (form: DocumentDraft | null) => JSON.stringify(form, (k, v) => (k === 'key' ? undefined : v));

export function loadEditor(key: string, form: DocumentDraft, base = '') {
  editor.key = key;
  editor.form = form;
  editor.saved = fingerprint(form);
  editor.base = base;
  editor.expanded = [];
  editor.errors = {};
}

export function resetEditor() {
  editor.key = '';
  editor.form = null;
  editor.saved = '';
  editor.base = '';
  editor.expanded = [];
  editor.errors = {};
}

export const markSaved = () => {
  editor.saved = fingerprint(snapshot(editor).form as DocumentDraft);
};

export const isDirty = (state: { form: DocumentDraft | null; saved: string }) =>
  state.form !== null && fingerprint(state.form) !== state.saved;

/** Adding a row appends a blank item and expands it. */
export function addLine(defaults: Partial<LineDraft> = {}): string {
  const key = newKey();
  const line = blankLine({ ...defaults, key });
  if (editor.form) editor.form.items = [...(editor.form.items ?? []), line];
  editor.expanded = [key];
  return key;
}

export function removeLine(key: string) {
  if (!editor.form) return;
  editor.form.items = (editor.form.items ?? []).filter((l) => l.key !== key);
  editor.expanded = editor.expanded.filter((k) => k !== key);
}

export function toggleLine(key: string) {
  editor.expanded = editor.expanded.includes(key) ? editor.expanded.filter((k) => k !== key) : [...editor.expanded, key];
}

export function clearError(path: string) {
  if (editor.errors[path]) delete editor.errors[path];
}
