import { useLocation } from 'wouter';
import type { DocumentType } from '../../../shared/schemas/document';
import { defined } from '../../../shared/defined';
import { DocumentEditorPage } from './editor/document-editor-page';
import { DocumentViewPage } from './document-view-page';
import { DocumentsPage } from './documents-page';
import { typeOfPath } from './document-meta';

/** The type the route names (/invoices/…, /estimates/…): routes.tsx mounts these pages under a type's base only. */
function useRouteType(): DocumentType {
  const [path] = useLocation();
  return defined(typeOfPath(path), `the document type of ${path}`);
}

/** One route component per page for every type (the routes are keyed by path, so a type change remounts the page). */
export function DocumentListRoute() {
  return <DocumentsPage type={useRouteType()} />;
}
export function DocumentEditorRoute() {
  return <DocumentEditorPage type={useRouteType()} />;
}
export function DocumentViewRoute() {
  return <DocumentViewPage type={useRouteType()} />;
}
export { PaymentsPage } from './payments-page';
