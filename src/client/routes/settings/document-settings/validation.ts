import { documentTemplateSchema, type DocumentTemplate } from '../../../../shared/schemas/template';
import { fieldIssueText, validationMessages } from '../../../../shared/validation-messages';

export type SectionId = 'numbering' | 'texts' | 'layout' | 'elements' | 'table' | 'styles';

/** Which tab holds the field at `path`, so the tab can be marked and shown on a refused save. */
export function sectionOf(path: readonly PropertyKey[]): SectionId {
  const [root, second] = path.map(String);
  if (root === 'numbering' || root === 'customer_numbering') return 'numbering';
  if (root === 'texts') return 'texts';
  if (root === 'header' || root === 'elements_following_pages' || root === 'footer') return 'elements';
  if (root === 'table') return second === 'style' ? 'styles' : 'table';
  return 'layout';
}

export interface DraftCheck {
  /** The parsed template when the draft is valid. */
  valid: DocumentTemplate | null;
  /** Message by dotted path, for the field; labelled messages, for the snackbar. */
  byPath: Map<string, string>;
  messages: string[];
  sections: Set<SectionId>;
  /** Areas of the Éléments tab that hold an error. */
  areas: Set<string>;
}

/** The shared schema judges the draft as the server will; its messages are the ones a 400 would carry. */
export function checkDraft(draft: unknown): DraftCheck {
  const result = documentTemplateSchema.safeParse(draft);
  if (result.success)
    return {
      valid: result.data,
      byPath: new Map(),
      messages: [],
      sections: new Set(),
      areas: new Set(),
    };
  const byPath = new Map<string, string>();
  const sections = new Set<SectionId>();
  const areas = new Set<string>();
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.');
    // Beside the field, what is wrong without its name; the snackbar's messages name it by its whole path.
    if (!byPath.has(key)) byPath.set(key, fieldIssueText(documentTemplateSchema, issue));
    sections.add(sectionOf(issue.path));
    areas.add(String(issue.path[0]));
  }
  return {
    valid: null,
    byPath,
    messages: validationMessages(result.error.issues, documentTemplateSchema),
    sections,
    areas,
  };
}
