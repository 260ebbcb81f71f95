import { useState } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { useQueryState } from '../../lib/use-query-state';
import { customerListInput } from '../../../shared/list-inputs';
import { Button } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { ListSkeleton } from '../../components/skeleton';
import { LIST_COLUMNS } from '../../page-skeletons';
import { Input } from '../../components/ui/field';
import { FilterField } from '../../components/ui/filter-field';
import { Select } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';
import { listStyles } from '../../components/ui/list';
import { namedListColumns, ResponsiveList } from '../../components/ui/responsive-list';
import { UsersIcon } from '../../components/icons';
import { csvImport } from '../../components/csv-import';
import { lazyDialog } from '../../components/lazy-dialog';
import { downloadCsv } from '../../lib/download-csv';
import { TagFilter } from '../../components/tags';
import { useCan } from '../../lib/use-can';
import { plural } from '../../../shared/french';

const customerForm = lazyDialog(
  () => import('./customer-form-dialog'),
  (m) => m.CustomerFormDialog,
);

const styles = listStyles;

const TYPES = [
  { value: '', label: 'Tous' },
  { value: 'company', label: 'Entreprises' },
  { value: 'individual', label: 'Particuliers' },
];

/** /customers: the list with its filter sidebar; every filter lives in the URL. */
export function CustomersPage() {
  const canWrite = useCan('customers.create');
  const [query, setQuery] = useQueryState();
  const [formOpen, setFormOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const utils = trpc.useUtils();
  async function exportCsv() {
    setExporting(true);
    await downloadCsv(() => utils.customers.export.fetch()).finally(() => setExporting(false));
  }
  const input = customerListInput(query);
  const { page, per_page: perPage, sort_by: sortBy, sort_order: sortOrder, type, tag, unpaid, archived } = input;
  const list = trpc.customers.list.useQuery(input, { placeholderData: (p) => p });
  const rows = list.data?.data ?? [];
  const filtered = Boolean(query.search || type || query.city || tag || unpaid);

  return (
    <div className={styles.layout}>
      <aside className={styles.sidebar} aria-label="Filtres">
        <FilterField label="Rechercher">
          <Input
            type="search"
            placeholder="Nom, numéro, e-mail, SIREN"
            defaultValue={query.search}
            onChange={(e) => setQuery({ search: e.target.value.trim(), page: 1 })}
          />
        </FilterField>
        <FilterField label="Type">
          <Select value={type ?? ''} onChange={(value) => setQuery({ type: value, page: 1 })} options={TYPES} />
        </FilterField>
        <FilterField label="Ville">
          <Input defaultValue={query.city} onChange={(e) => setQuery({ city: e.target.value.trim(), page: 1 })} />
        </FilterField>
        <TagFilter kind="customer" value={query.tag} onChange={(value) => setQuery({ tag: value, page: 1 })} />
        <Checkbox checked={unpaid === true} onChange={(checked) => setQuery({ unpaid: checked ? 'true' : '', page: 1 })}>
          Avec factures impayées
        </Checkbox>
        <Checkbox checked={archived === 'include'} onChange={(checked) => setQuery({ archived: checked ? 'include' : '', page: 1 })}>
          Afficher les clients archivés
        </Checkbox>
      </aside>
      <section className={styles.panel}>
        <div className={styles.toolbar}>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{list.data ? plural(list.data.total, 'client') : ' '}</p>
          <div className={css({ display: 'flex', gap: '2' })}>
            <Button variant="outline" onClick={exportCsv} loading={exporting}>
              Exporter
            </Button>
            {canWrite && (
              <>
                <Button variant="outline" onClick={() => setImportOpen(true)} {...csvImport.opener}>
                  Importer
                </Button>
                <Button onClick={() => setFormOpen(true)} {...customerForm.opener}>
                  Nouveau client
                </Button>
              </>
            )}
          </div>
        </div>
        {list.isPending ? (
          <ListSkeleton label="Chargement des clients" columns={LIST_COLUMNS.customers} />
        ) : list.data && list.data.total === 0 ? (
          <div className={styles.empty}>
            <UsersIcon size={32} />
            <p>
              {filtered
                ? 'Aucun client ne correspond à ces filtres.'
                : 'Aucun client pour l’instant. Ajoutez le premier pour pouvoir le facturer.'}
            </p>
            {!filtered && canWrite && (
              <Button onClick={() => setFormOpen(true)} {...customerForm.opener}>
                Ajouter un client
              </Button>
            )}
          </div>
        ) : (
          <>
            <ResponsiveList
              label="Clients"
              testId="customers-list"
              rows={rows}
              rowKey={(c) => c.id}
              sort={{ by: sortBy, order: sortOrder, onSort: (sort_by, sort_order) => setQuery({ sort_by, sort_order, page: 1 }) }}
              columns={namedListColumns<(typeof rows)[number]>({
                reference: { key: 'number', label: 'Numéro', sort: 'number', cell: (c) => c.number },
                name: {
                  key: 'name',
                  label: 'Nom',
                  sort: 'name',
                  cell: (c) => (
                    <Link href={`/customers/${c.id}`} className={styles.link}>
                      {c.name}
                    </Link>
                  ),
                },
                badges: (c) => (c.deleted_at ? ['Archivé'] : []),
                tags: (c) => c.tags,
                subtitle: { key: 'email', label: 'E-mail', cell: (c) => c.email },
                details: [{ key: 'city', label: 'Ville', sort: 'city', cell: (c) => c.address.city }],
                status: { key: 'type', label: 'Type', cell: (c) => (c.type === 'company' ? 'Entreprise' : 'Particulier') },
              })}
            />
            <Pagination page={page} perPage={perPage} total={list.data?.total ?? 0} onChange={(patch) => setQuery(patch)} />
          </>
        )}
      </section>
      <customerForm.Dialog open={formOpen} customer={null} onClose={() => setFormOpen(false)} onSaved={() => setFormOpen(false)} />
      <csvImport.Dialog entity="customers" open={importOpen} onClose={() => setImportOpen(false)} />
    </div>
  );
}
