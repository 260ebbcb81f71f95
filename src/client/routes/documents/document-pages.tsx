import type { ComponentType } from 'react';
import { DOCUMENT_TYPES, type DocumentType } from '../../../shared/schemas/document';
import { DocumentEditorPage } from './editor/document-editor-page';
import { DocumentViewPage } from './document-view-page';

/** One route component per type for the editor and the preview (routes.tsx maps each base to them). */
const perType = (Page: ComponentType<{ type: DocumentType }>) =>
  Object.fromEntries(DOCUMENT_TYPES.map((type) => [type, () => <Page type={type} />])) as unknown as Record<DocumentType, ComponentType>;

export const DOCUMENT_EDITOR_PAGES = perType(DocumentEditorPage);
export const DOCUMENT_VIEW_PAGES = perType(DocumentViewPage);
export { PaymentsPage } from './payments-page';
