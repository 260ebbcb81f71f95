import { proxy } from 'valtio';
import type { DocumentTemplate, TemplateElement, TemplateRow } from '../../../../shared/schemas/template';
import { defined } from '../../../../shared/defined';

export type Area = 'header' | 'elements_following_pages' | 'footer';
export type Column = TemplateRow['columns'][number];

/**
 * The template being designed. Sections mutate `designer.draft` in their handlers and read it through
 * `useSnapshot`; the page compares it with the saved template for the 'unsaved changes' flag.
 */
export const designer = proxy({
  draft: null as DocumentTemplate | null,
  /** Where a dragged element comes from, while a drag is under way. */
  dragging: null as ElementAddress | null,
});

export function draft(): DocumentTemplate {
  if (!designer.draft) throw new Error('designer draft used before the template loaded');
  return designer.draft;
}

/** A fresh copy, so the saved template (TanStack Query's cache) is never mutated through the proxy. */
export function loadDraft(template: DocumentTemplate | null) {
  designer.draft = template ? structuredClone(template) : null;
}

export interface ElementAddress {
  area: Area;
  row: number;
  column: number;
  index: number;
}

export const column = (a: Pick<ElementAddress, 'area' | 'row' | 'column'>): Column =>
  defined(defined(draft()[a.area][a.row], 'draft()[a.area][a.row]').columns[a.column]);

/** Moves `list[from]` to `to` (clamped); the designer's 'Monter' / 'Descendre' and table column order. */
export function move<T>(list: T[], from: number, to: number) {
  if (to < 0 || to >= list.length || from === to) return;
  const [item] = list.splice(from, 1);
  list.splice(to, 0, defined(item, 'item'));
}

/**
 * Drops the dragged element before `target.index` of the target column (or at its end when index equals its
 * length). Within one column the index shifts once the element has left its old place.
 */
export function moveElement(from: ElementAddress, target: ElementAddress) {
  const source = column(from).elements;
  const [element] = source.splice(from.index, 1);
  if (!element) return;
  const same = from.area === target.area && from.row === target.row && from.column === target.column;
  const index = same && target.index > from.index ? target.index - 1 : target.index;
  const destination = column(target).elements;
  destination.splice(Math.min(index, destination.length), 0, element);
}

/** A new element of `type` with the options of its type set to their defaults. */
export function newElement(type: TemplateElement['type']): TemplateElement {
  switch (type) {
    case 'logo':
      return { type, url: '', size: 100 };
    case 'icon':
      return { type, name: 'star', size: 24, color: '' };
    case 'document_info':
      return {
        type,
        layout: 1,
        display: {
          document_number: true,
          date: true,
          maturity: true,
          customer_id: true,
          payment_method: false,
          total_document: true,
        },
      };
    case 'text':
      return { type, content: '' };
    case 'separator':
      return {
        type,
        border_style: 'solid',
        color: '#D0D5DD',
        width: 1,
        el_width: 100,
        align: 'center',
      };
    default:
      return { type } as TemplateElement;
  }
}

export const newColumn = (cols = 12): Column => ({
  cols,
  offset: 0,
  text_align: 'left',
  align: 'start',
  elements: [],
});
export const newRow = (): TemplateRow => ({
  align: 'start',
  justify: 'start',
  columns: [newColumn()],
});

const keys = new WeakMap<object, string>();
let nextKey = 0;
/**
 * A stable React key for a draft object (an element, a row, a column) that has no id: the proxy keeps its identity
 * when moved, so a moved element keeps its open options and its focused button.
 */
export function keyOf(object: object): string {
  let key = keys.get(object);
  if (!key) {
    nextKey += 1;
    key = `k${nextKey}`;
    keys.set(object, key);
  }
  return key;
}

/** Elements added in this session open their options at once (a new text asks for its content). */
export const justAdded = new WeakSet<object>();
