import { useEffect, useState } from 'react';
import { DOCUMENT_TYPE_TABLE } from '../../../shared/document-types';
import { Link, useLocation } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import type { DocumentType } from '../../../shared/schemas/document';
import { EDITOR_TITLES, maturityLabel, showsTotal } from '../../../shared/status';
import { trpc } from '../../trpc';
import { useQueryState } from '../../lib/use-query-state';
import { useMoney } from '../../lib/use-money';
import { useMediaQuery } from '../../lib/use-media-query';
import { Button, buttonRecipe } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { ListPending, listStyles } from '../../components/ui/list';
import { ResponsiveList } from '../../components/ui/responsive-list';
import { ListSkeleton } from '../../components/skeleton';
import { LIST_COLUMNS } from '../../page-skeletons';
import { FileIcon } from '../../components/icons';
import { documentColumns } from './document-columns';
import { baseOf } from './document-meta';
import { DocumentTypeTabs } from './document-type-tabs';
import { DocumentFilters, FILTER_KEYS, hasFilters } from './document-filters';
import { documentListInput } from '../../../shared/list-inputs';
import { DocumentRowActions, openHref } from './document-row-actions';
import { RemindersPanel } from './reminders-panel';
import { useCan } from '../../lib/use-can';
import { deName, plural } from '../../../shared/french';

const styles = {
  ...listStyles,
  views: css({ display: 'flex', gap: '1', mb: '3' }),
  view: css({
    px: '3',
    py: '1.5',
    borderRadius: 'lg',
    fontSize: 'sm',
    fontWeight: '600',
    color: 'fg.muted',
    _hover: { bg: 'bg.muted', color: 'fg.default' },
  }),
  viewActive: css({ bg: 'accent.subtle', color: 'accent.fg' }),
};

/** A list of sales documents of one type (bases), its filters in the URL. */
export function DocumentsPage({ type }: { type: DocumentType }) {
  const canWrite = useCan('documents.create');
  const [query, setQuery] = useQueryState();
  const [, navigate] = useLocation();
  // Remounting the filter panel empties its uncontrolled inputs when the filters are cleared.
  const [filtersKey, setFiltersKey] = useState(0);
  const money = useMoney();
  const input = documentListInput(type, query);
  const { page, per_page: perPage, sort_by: sortBy, sort_order: sortOrder } = input;
  const list = trpc.documents.list.useQuery(input, { placeholderData: (previous) => previous });
  const filtered = hasFilters(query);
  // Deleting the last row of the last page leaves the page past the end: step back to the last one that exists.
  const lastPage = list.data ? Math.max(1, Math.ceil(list.data.total / perPage)) : page;
  useEffect(() => {
    if (page > lastPage) setQuery({ page: lastPage > 1 ? lastPage : undefined });
  }, [page, lastPage, setQuery]);
  // On a phone the filters fold behind a button, so the documents come first.
  const wide = useMediaQuery('(min-width: 1024px)');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = FILTER_KEYS.filter((key) => key !== 'from' && key !== 'to' && query[key]).length;
  const clearFilters = () => {
    setQuery({ ...Object.fromEntries(FILTER_KEYS.map((key) => [key, undefined])), page: undefined });
    setFiltersKey((k) => k + 1);
  };
  const withTotal = showsTotal(type);
  const withDue = DOCUMENT_TYPE_TABLE[type].receivesPayments;
  const withMaturity = DOCUMENT_TYPE_TABLE[type].hasMaturity;
  const newHref = `${baseOf(type)}/new/add`;
  const { noun: one, plural: many } = DOCUMENT_TYPE_TABLE[type];

  const columns = documentColumns({
    money,
    maturity: withMaturity ? maturityLabel(type) : undefined,
    total: withTotal,
    due: withDue,
  });

  // Factures → Relances has no route of its own for it, so it is a view of the invoices' page.
  const remindersView = type === 'invoice' && query.view === 'relances';
  return (
    <div>
      <DocumentTypeTabs current={type} />
      {type === 'invoice' && (
        <nav className={styles.views} aria-label="Vue">
          <Link
            href="/invoices"
            className={cx(styles.view, !remindersView && styles.viewActive)}
            aria-current={!remindersView ? 'page' : undefined}
          >
            Toutes les factures
          </Link>
          <Link
            href="/invoices?view=relances"
            className={cx(styles.view, remindersView && styles.viewActive)}
            aria-current={remindersView ? 'page' : undefined}
          >
            Relances
          </Link>
        </nav>
      )}
      {remindersView ? (
        <section className={styles.panel} aria-label="Relances">
          <RemindersPanel />
        </section>
      ) : (
        <div className={styles.layout}>
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
            {!wide && (
              <Button
                variant="outline"
                aria-expanded={filtersOpen}
                aria-controls="document-filters"
                onClick={() => setFiltersOpen((open) => !open)}
              >
                {filtersOpen ? 'Masquer les filtres' : 'Filtres'}
                {activeFilters > 0 && ` (${activeFilters})`}
              </Button>
            )}
            {(wide || filtersOpen) && <DocumentFilters key={filtersKey} type={type} query={query} setQuery={setQuery} />}
            {filtered && (
              <Button variant="ghost" size="sm" onClick={clearFilters}>
                Effacer les filtres
              </Button>
            )}
          </div>
          <section className={styles.panel} aria-label={many}>
            <div className={styles.toolbar}>
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })} aria-live="polite">
                {list.data ? plural(list.data.total, one, many) : ' '}
              </p>
              {canWrite && (
                <Link href={newHref} className={buttonRecipe()}>
                  {EDITOR_TITLES[type]}
                </Link>
              )}
            </div>
            {list.isPending ? (
              <ListSkeleton label={`Chargement des ${many}`} columns={LIST_COLUMNS.documents} />
            ) : !list.data ? (
              <ListPending query={list} label={`Chargement des ${many}`} failed="La liste n’a pas pu être chargée." />
            ) : list.data.total === 0 ? (
              <div className={styles.empty}>
                <FileIcon size={32} />
                {filtered ? (
                  <>
                    <p>Aucun document ne correspond à ces filtres.</p>
                    <Button variant="outline" onClick={clearFilters}>
                      Effacer les filtres
                    </Button>
                  </>
                ) : (
                  <>
                    <p className={css({ fontWeight: '600', color: 'fg.default' })}>Pas encore {deName(many)}</p>
                    <p className={css({ fontSize: 'sm' })}>{DOCUMENT_TYPE_TABLE[type].firstHint}</p>
                    {canWrite && (
                      <Link href={newHref} className={buttonRecipe()}>
                        {EDITOR_TITLES[type]}
                      </Link>
                    )}
                  </>
                )}
              </div>
            ) : (
              <>
                <ResponsiveList
                  label={many}
                  testId="documents-list"
                  rows={list.data.data}
                  rowKey={(doc) => doc.id}
                  columns={columns}
                  actions={(doc) => <DocumentRowActions doc={doc} />}
                  onOpen={(doc) => navigate(openHref(doc))}
                  sort={{ by: sortBy, order: sortOrder, onSort: (sort_by, sort_order) => setQuery({ sort_by, sort_order, page: 1 }) }}
                  dimmed={list.isPlaceholderData}
                />
                <Pagination page={page} perPage={perPage} total={list.data.total} onChange={(patch) => setQuery(patch)} />
              </>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
