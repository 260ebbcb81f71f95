import { DOCUMENT_TYPES, type DocumentType, type ListType } from '../../../shared/document-types';
import { LIST_BASES } from '../../../shared/status';
import { LIST_TABLE } from '../../../shared/document-types';

/** List titles, one per base. */
export const LIST_TITLES: Record<ListType, string> = Object.fromEntries(
  Object.entries(LIST_TABLE).map(([type, info]) => [type, info.listTitle]),
) as Record<ListType, string>;

/** One document of a type, for labels and menus ("Convertir en facture"): one list for both sides. */
export { TYPE_LABELS } from '../../../shared/status';

export const baseOf = (type: DocumentType): string => LIST_BASES[type];

export const typeOfPath = (path: string): DocumentType | undefined =>
  DOCUMENT_TYPES.find((t) => path === LIST_BASES[t] || path.startsWith(`${LIST_BASES[t]}/`));

/** Where a document opens: drafts and pending documents in the editor, the others in their view. */
export const documentHref = (doc: { id: number; type: DocumentType }, tab: 'edit' | 'view' | 'payments' = 'edit') =>
  `${baseOf(doc.type)}/${doc.id}/${tab}`;
