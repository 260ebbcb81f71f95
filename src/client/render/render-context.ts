import type { DocumentTemplate, TemplateElement, TemplateRow } from '../../shared/schemas/template';
import type { AppSettings } from '../../shared/schemas/settings';
import { formattersOf, type Formatters } from './labels';
import type { RenderDocument } from './types';

/** What every part of a page reads: the document, the template, formatters, and where the page stands. */
export interface RenderContext {
  doc: RenderDocument;
  template: DocumentTemplate;
  f: Formatters;
  /** Element types the template places in its header, following-pages header or footer. */
  placed: ReadonlySet<TemplateElement['type']>;
}

export interface PagePosition {
  page: number;
  pages: number;
}

export const elementsOf = (rows: readonly TemplateRow[]) => rows.flatMap((r) => r.columns.flatMap((c) => c.elements));

export function renderContextOf(doc: RenderDocument, template: DocumentTemplate, settings: AppSettings): RenderContext {
  const placed = new Set(
    [...elementsOf(template.header), ...elementsOf(template.elements_following_pages), ...elementsOf(template.footer)].map((e) => e.type),
  );
  return { doc, template, f: formattersOf(settings, doc.currency), placed };
}

/** Colours of the page's own drawing (a template style overrides them). */
export const INK = '#1D2939';
export const MUTED = '#667085';
export const RULE = '#E4E7EC';
