import { useState } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { useQueryState } from '../../lib/use-query-state';
import { Button } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { Spinner } from '../../components/ui/spinner';
import { inputStyle } from '../../components/ui/text-field';
import { listStyles } from '../../components/ui/list';
import { ResponsiveList } from '../../components/ui/responsive-list';
import { UsersIcon } from '../../components/icons';
import { CustomerFormDialog } from './customer-form-dialog';
import { CsvImportDialog, downloadCsv } from '../../components/csv-import-dialog';
import { TagChips, TagFilter } from '../../components/tags';
import { useCan } from '../../lib/use-can';
import { plural } from '../../../shared/french';

const styles = listStyles;

type SortKey = 'name' | 'number' | 'city' | 'created_at';

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
  const page = Number(query.page ?? 1) || 1;
  const perPage = Number(query.per_page ?? 10) || 10;
  const sortBy = (query.sort_by as SortKey) ?? 'name';
  const sortOrder = query.sort_order === 'desc' ? 'desc' : 'asc';
  const archived = query.archived === 'include' ? 'include' : 'exclude';
  const type = query.type === 'company' || query.type === 'individual' ? query.type : undefined;
  const tag = Number(query.tag) || undefined;
  const unpaid = query.unpaid === 'true' ? true : undefined;
  const list = trpc.customers.list.useQuery(
    {
      search: query.search,
      type,
      city: query.city,
      tag,
      unpaid,
      archived,
      sort_by: sortBy,
      sort_order: sortOrder,
      page,
      per_page: perPage,
    },
    { placeholderData: (previous) => previous },
  );
  const filtered = Boolean(query.search || type || query.city || tag || unpaid);

  return (
    <div className={styles.layout}>
      <aside className={styles.sidebar} aria-label="Filtres">
        <label className={styles.label} htmlFor="customer-search">
          Rechercher
        </label>
        <input
          id="customer-search"
          className={inputStyle}
          type="search"
          placeholder="Nom, numéro, e-mail, SIREN"
          defaultValue={query.search}
          onChange={(e) => setQuery({ search: e.target.value.trim(), page: 1 })}
        />
        <label className={styles.label} htmlFor="customer-type">
          Type
        </label>
        <select id="customer-type" className={inputStyle} value={type ?? ''} onChange={(e) => setQuery({ type: e.target.value, page: 1 })}>
          <option value="">Tous</option>
          <option value="company">Entreprises</option>
          <option value="individual">Particuliers</option>
        </select>
        <label className={styles.label} htmlFor="customer-city">
          Ville
        </label>
        <input
          id="customer-city"
          className={inputStyle}
          defaultValue={query.city}
          onChange={(e) => setQuery({ city: e.target.value.trim(), page: 1 })}
        />
        <TagFilter kind="customer" value={query.tag} onChange={(value) => setQuery({ tag: value, page: 1 })} />
        <label className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm', mt: '1' })}>
          <input
            type="checkbox"
            checked={unpaid === true}
            onChange={(e) => setQuery({ unpaid: e.target.checked ? 'true' : '', page: 1 })}
          />
          Avec factures impayées
        </label>
        <label className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm', mt: '1' })}>
          <input
            type="checkbox"
            checked={archived === 'include'}
            onChange={(e) => setQuery({ archived: e.target.checked ? 'include' : '', page: 1 })}
          />
          Afficher les clients archivés
        </label>
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
                <Button variant="outline" onClick={() => setImportOpen(true)}>
                  Importer
                </Button>
                <Button onClick={() => setFormOpen(true)}>Nouveau client</Button>
              </>
            )}
          </div>
        </div>
        {list.isPending ? (
          <div className={styles.empty} role="status">
            <Spinner label="Chargement des clients" />
          </div>
        ) : list.data && list.data.total === 0 ? (
          <div className={styles.empty}>
            <UsersIcon size={32} />
            <p>
              {filtered
                ? 'Aucun client ne correspond à ces filtres.'
                : 'Aucun client pour l’instant. Ajoutez le premier pour pouvoir le facturer.'}
            </p>
            {!filtered && canWrite && <Button onClick={() => setFormOpen(true)}>Ajouter un client</Button>}
          </div>
        ) : (
          <>
            <ResponsiveList
              label="Clients"
              testId="customers-list"
              rows={list.data?.data ?? []}
              rowKey={(c) => c.id}
              sort={{ by: sortBy, order: sortOrder, onSort: (sort_by, sort_order) => setQuery({ sort_by, sort_order, page: 1 }) }}
              columns={[
                { key: 'number', label: 'Numéro', sort: 'number', className: styles.number, cell: (c) => c.number },
                {
                  key: 'name',
                  label: 'Nom',
                  sort: 'name',
                  card: 'title',
                  cell: (c) => (
                    <>
                      <Link href={`/customers/${c.id}`} className={styles.link}>
                        {c.name}
                      </Link>
                      {c.deleted_at && <span className={styles.badge}>Archivé</span>}
                      <TagChips tags={c.tags} />
                    </>
                  ),
                },
                { key: 'email', label: 'E-mail', card: 'subtitle', cell: (c) => c.email },
                { key: 'city', label: 'Ville', sort: 'city', cell: (c) => c.address.city },
                { key: 'type', label: 'Type', card: 'status', cell: (c) => (c.type === 'company' ? 'Entreprise' : 'Particulier') },
              ]}
            />
            <Pagination page={page} perPage={perPage} total={list.data?.total ?? 0} onChange={(patch) => setQuery(patch)} />
          </>
        )}
      </section>
      <CustomerFormDialog open={formOpen} customer={null} onClose={() => setFormOpen(false)} onSaved={() => setFormOpen(false)} />
      <CsvImportDialog entity="customers" open={importOpen} onClose={() => setImportOpen(false)} />
    </div>
  );
}
