import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { DEFAULT_CURRENCY_FORMAT, formatMoney } from '../../../shared/format';
import { trpc } from '../../trpc';
import { showMessage } from '../../stores/snackbar';
import { useQueryState } from '../../lib/use-query-state';
import { itemListInput } from '../../../shared/list-inputs';
import { Button } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { ListSkeleton } from '../../components/skeleton';
import { LIST_COLUMNS } from '../../page-skeletons';
import { Input } from '../../components/ui/field';
import { FilterField } from '../../components/ui/filter-field';
import { Select } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';
import { listStyles as styles } from '../../components/ui/list';
import { namedListColumns, ResponsiveList } from '../../components/ui/responsive-list';
import { BoxIcon } from '../../components/icons';
import { csvImport } from '../../components/csv-import';
import { lazyDialog } from '../../components/lazy-dialog';
import { downloadCsv } from '../../lib/download-csv';
import { TagFilter } from '../../components/tags';
import type { ItemRow } from './types';
import { useCan } from '../../lib/use-can';
import { plural } from '../../../shared/french';

const itemForm = lazyDialog(
  () => import('./item-form-dialog'),
  (m) => m.ItemFormDialog,
);

const KINDS = [
  { value: '', label: 'Toutes' },
  { value: 'service', label: 'Prestations de service' },
  { value: 'goods', label: 'Ventes de biens' },
];

/** /items: the catalogue the document editor's picker offers. */
export function ItemsPage() {
  const canWrite = useCan('items.create');
  const canRestore = useCan('items.restore');
  const [query, setQuery] = useQueryState();
  const [editing, setEditing] = useState<ItemRow | null>(null);
  const [creating, setCreating] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const input = itemListInput(query);
  const { page, per_page: perPage, sort_by: sortBy, sort_order: sortOrder, kind, tag, archived } = input;
  const list = trpc.items.list.useQuery(input, { placeholderData: (p) => p });
  const taxes = trpc.taxes.list.useQuery(undefined, { staleTime: 60_000 });
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: Infinity });
  const utils = trpc.useUtils();
  const restore = trpc.items.restore.useMutation({
    onSuccess: (a) => {
      showMessage(a.messages, 200);
      return utils.items.invalidate();
    },
  });
  const currencyFormat = settings.data && 'currency_format' in settings.data ? settings.data.currency_format : DEFAULT_CURRENCY_FORMAT;
  const taxTitle = (ids: number[]) =>
    ids
      .map((id) => taxes.data?.data.find((t) => t.id === id)?.title ?? '')
      .filter(Boolean)
      .join(', ');
  const filtered = Boolean(query.search || kind || tag);
  const sort = (sort_by: string, sort_order: 'asc' | 'desc') => setQuery({ sort_by, sort_order, page: 1 });

  return (
    <div className={styles.layout}>
      <aside className={styles.sidebar} aria-label="Filtres">
        <FilterField label="Rechercher">
          <Input
            type="search"
            placeholder="Désignation, code, référence"
            defaultValue={query.search}
            onChange={(e) => setQuery({ search: e.target.value.trim(), page: 1 })}
          />
        </FilterField>
        <FilterField label="Nature">
          <Select value={kind ?? ''} onChange={(value) => setQuery({ kind: value, page: 1 })} options={KINDS} />
        </FilterField>
        <TagFilter kind="item" value={query.tag} onChange={(value) => setQuery({ tag: value, page: 1 })} />
        <Checkbox checked={archived === 'include'} onChange={(checked) => setQuery({ archived: checked ? 'include' : '', page: 1 })}>
          Afficher les articles archivés
        </Checkbox>
      </aside>
      <section className={styles.panel}>
        <div className={styles.toolbar}>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{list.data ? plural(list.data.total, 'article') : ' '}</p>
          <div className={css({ display: 'flex', gap: '2' })}>
            <Button
              variant="outline"
              loading={exporting}
              onClick={() => {
                setExporting(true);
                return downloadCsv(() => utils.items.export.fetch()).finally(() => setExporting(false));
              }}
            >
              Exporter
            </Button>
            {canWrite && (
              <>
                <Button variant="outline" onClick={() => setImportOpen(true)} {...csvImport.opener}>
                  Importer
                </Button>
                <Button onClick={() => setCreating(true)} {...itemForm.opener}>
                  Nouvel article
                </Button>
              </>
            )}
          </div>
        </div>
        {list.isPending ? (
          <ListSkeleton label="Chargement des articles" columns={LIST_COLUMNS.items} />
        ) : list.data && list.data.total === 0 ? (
          <div className={styles.empty}>
            <BoxIcon size={32} />
            <p>
              {filtered
                ? 'Aucun article ne correspond à ces filtres.'
                : 'Aucun article pour l’instant. Vos prestations et produits se retrouveront ici, prêts à facturer.'}
            </p>
            {!filtered && canWrite && (
              <Button onClick={() => setCreating(true)} {...itemForm.opener}>
                Ajouter un article
              </Button>
            )}
          </div>
        ) : (
          <>
            <ResponsiveList
              label="Articles"
              testId="items-list"
              rows={list.data?.data ?? []}
              rowKey={(item) => item.id}
              sort={{ by: sortBy, order: sortOrder, onSort: sort }}
              columns={namedListColumns<ItemRow>({
                reference: { key: 'code', label: 'Code', sort: 'code', cell: (item) => item.code },
                name: {
                  key: 'name',
                  label: 'Désignation',
                  sort: 'name',
                  cell: (item) =>
                    item.deleted_at ? (
                      item.name
                    ) : (
                      <button type="button" className={styles.link} onClick={() => setEditing(item)} {...itemForm.opener}>
                        {item.name}
                      </button>
                    ),
                },
                badges: (item) => (item.deleted_at ? ['Archivé'] : item.active ? [] : ['Inactif']),
                after: (item) =>
                  item.deleted_at &&
                  canRestore && (
                    <Button variant="link" size="sm" className={css({ ml: '2' })} onClick={() => restore.mutate({ id: item.id })}>
                      Restaurer
                    </Button>
                  ),
                tags: (item) => item.tags,
                details: [{ key: 'unit', label: 'Unité', cell: (item) => item.unit }],
                amount: {
                  key: 'unit_price',
                  label: 'Prix HT',
                  sort: 'unit_price',
                  cell: (item) => formatMoney(item.unit_price, currencyFormat),
                },
                subtitle: { key: 'tax', label: 'TVA', cell: (item) => taxTitle(item.tax_ids) },
                status: { key: 'kind', label: 'Nature', cell: (item) => (item.kind === 'goods' ? 'Bien' : 'Service') },
              })}
            />
            <Pagination page={page} perPage={perPage} total={list.data?.total ?? 0} onChange={(patch) => setQuery(patch)} />
          </>
        )}
      </section>
      <itemForm.Dialog
        open={creating || editing !== null}
        item={editing}
        onClose={() => {
          setCreating(false);
          return setEditing(null);
        }}
      />
      <csvImport.Dialog entity="items" open={importOpen} onClose={() => setImportOpen(false)} />
    </div>
  );
}
