import type { PageSkeletonKind, SkeletonColumn } from './components/skeleton';
import { LIST_BASES } from '../shared/status';
import type { ListType } from '../shared/schemas/document';

// What each main page looks like before its data: drawn by the first script (components/shell-skeleton.tsx) and by the
// page itself while its list comes (the same column headings as its table, in the same order).

const right = (label: string): SkeletonColumn => ({ label, align: 'right' });

export const LIST_COLUMNS = {
  documents: [{ label: 'Numéro' }, { label: 'Client' }, { label: 'Date' }, right('Total TTC'), right('Reste dû'), { label: 'Statut' }],
  customers: [{ label: 'Numéro' }, { label: 'Nom' }, { label: 'E-mail' }, { label: 'Ville' }, { label: 'Type' }],
  items: [{ label: 'Code' }, { label: 'Désignation' }, { label: 'TVA' }, { label: 'Unité' }, right('Prix HT'), { label: 'Nature' }],
  expenses: [
    { label: 'Date' },
    { label: 'Fournisseur' },
    { label: 'Catégorie' },
    { label: 'Libellé' },
    right('TVA'),
    right('Montant TTC'),
    { label: 'Statut' },
    { label: 'Justificatif' },
  ],
} satisfies Record<string, readonly SkeletonColumn[]>;

const list = (label: string, columns: readonly SkeletonColumn[]): PageSkeletonKind => ({ kind: 'list', label, columns });

const SKELETONS: Record<string, PageSkeletonKind> = {
  '/': { kind: 'dashboard' },
  '/customers': list('Chargement des clients', LIST_COLUMNS.customers),
  '/items': list('Chargement des articles', LIST_COLUMNS.items),
  '/expenses': list('Chargement des dépenses', LIST_COLUMNS.expenses),
  '/appointments': { kind: 'agenda' },
  '/reports': { kind: 'reports' },
  ...Object.fromEntries(
    (Object.entries(LIST_BASES) as [ListType, string][]).map(([, base]) => [
      base,
      list('Chargement des documents', LIST_COLUMNS.documents),
    ]),
  ),
};

/** The skeleton of the page at `path`; a form's for the others (settings, editors). */
export const skeletonOf = (path: string): PageSkeletonKind => SKELETONS[path] ?? { kind: 'form' };
