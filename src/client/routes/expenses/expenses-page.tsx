import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import type { ExpenseRecord } from '../../../shared/schemas/expense';
import { EXPENSE_STATUS_LABELS } from '../../../shared/expense-statuses';
import { formatDateShort } from '../../../shared/format';
import { trpc } from '../../trpc';
import { useQueryState } from '../../lib/use-query-state';
import { useMoney } from '../../lib/use-money';
import { useMediaQuery } from '../../lib/use-media-query';
import { Button } from '../../components/ui/button';
import { Pagination } from '../../components/ui/pagination';
import { ListPending, listStyles } from '../../components/ui/list';
import { ResponsiveList } from '../../components/ui/responsive-list';
import { ListSkeleton } from '../../components/skeleton';
import { LIST_COLUMNS } from '../../page-skeletons';
import { WalletIcon } from '../../components/icons';
import { downloadCsv } from '../../lib/download-csv';
import { expenseFilters, pageOf } from '../../../shared/list-inputs';
import { EXPENSE_FILTER_KEYS, ExpenseFilters, hasExpenseFilters } from './expense-filters';
import { EinvoiceDropZone, EinvoiceImportButton, type ImportedInvoice, useEinvoiceImport } from './einvoice-import';
import { receiptUrl } from './receipt-field';
import { useCan } from '../../lib/use-can';
import { plural } from '../../../shared/french';
import { PlatformInbox } from './platform-inbox';
import { lazyDialog } from '../../components/lazy-dialog';

const expenseForm = lazyDialog(
  () => import('./expense-form-dialog'),
  (m) => m.ExpenseFormDialog,
);

const styles = {
  ...listStyles,
  amount: css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  muted: css({ color: 'fg.muted' }),
  chip: css({ display: 'inline-block', px: '2', py: '0.5', borderRadius: 'full', fontSize: 'xs', fontWeight: '600' }),
  paid: css({ bg: 'successSubtle', color: 'success' }),
  unpaid: css({ bg: 'warningSubtle', color: 'warning' }),
  creditNote: css({ bg: 'accent.subtle', color: 'accent.default', mr: '1.5' }),
  toCheck: css({ bg: 'warningSubtle', color: 'warning', ml: '1.5', fontWeight: '600' }),
  sums: css({
    display: 'flex',
    gap: '6',
    flexWrap: 'wrap',
    px: '4',
    py: '3',
    borderTopWidth: '1px',
    borderColor: 'border.default',
    fontSize: 'sm',
  }),
  sumValue: css({ fontWeight: '700', fontVariantNumeric: 'tabular-nums' }),
  actions: css({ display: 'flex', gap: '2', flexWrap: 'wrap' }),
};

/** Expenses: the documents list's filters and URL conventions, the filtered set's sums, the form in a dialog. */
export function ExpensesPage() {
  const canWrite = useCan('expenses.create');
  const canImport = useCan('expenses.importEinvoice');
  const [query, setQuery] = useQueryState();
  const [filtersKey, setFiltersKey] = useState(0);
  const [editing, setEditing] = useState<ExpenseRecord | 'new' | null>(null);
  // An imported invoice opens for its category to be confirmed, with what the import could not take.
  const [imported, setImported] = useState<ImportedInvoice | null>(null);
  const einvoice = useEinvoiceImport((result) => {
    setImported(result);
    setEditing(result.expense);
  });
  const [exporting, setExporting] = useState(false);
  const utils = trpc.useUtils();
  const money = useMoney();
  const { page, per_page: perPage } = pageOf(query);
  const filters = expenseFilters(query);
  const { sort_by: sortBy, sort_order: sortOrder } = filters;
  const list = trpc.expenses.list.useQuery({ ...filters, page, per_page: perPage }, { placeholderData: (previous) => previous });
  const filtered = hasExpenseFilters(query);
  const count = list.data?.total; // a number of expenses, not an amount
  const lastPage = count !== undefined ? Math.max(1, Math.ceil(count / perPage)) : page;
  useEffect(() => {
    if (page > lastPage) setQuery({ page: lastPage > 1 ? lastPage : undefined });
  }, [page, lastPage, setQuery]);
  const wide = useMediaQuery('(min-width: 1024px)');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const clearFilters = () => {
    setQuery({ ...Object.fromEntries(EXPENSE_FILTER_KEYS.map((key) => [key, undefined])), page: undefined });
    setFiltersKey((k) => k + 1);
  };
  async function exportCsv() {
    setExporting(true);
    await downloadCsv(() => utils.expenses.export.fetch(filters)).finally(() => setExporting(false));
  }

  const openExpense = (id: number) => {
    void utils.expenses.get.fetch({ id }).then(setEditing);
  };

  return (
    <div>
      <PlatformInbox onOpenExpense={openExpense} />
      <div className={styles.layout}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          {!wide && (
            <Button variant="outline" aria-expanded={filtersOpen} aria-controls="expense-filters" onClick={() => setFiltersOpen((o) => !o)}>
              {filtersOpen ? 'Masquer les filtres' : 'Filtres'}
            </Button>
          )}
          {(wide || filtersOpen) && <ExpenseFilters key={filtersKey} query={query} setQuery={setQuery} />}
          {filtered && (
            <Button variant="ghost" size="sm" onClick={clearFilters}>
              Effacer les filtres
            </Button>
          )}
        </div>
        <EinvoiceDropZone
          onFile={canImport ? einvoice.importFile : undefined}
          pending={einvoice.pending}
          pendingName={einvoice.pendingName}
          error={einvoice.error}
        >
          <section className={styles.panel} aria-label="Dépenses">
            <div className={styles.toolbar}>
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })} aria-live="polite">
                {list.data ? plural(list.data.total, 'dépense') : ' '}
              </p>
              <div className={styles.actions}>
                <Link
                  href="/expenses/recurring"
                  className={css({ alignSelf: 'center', fontSize: 'sm', color: 'accent.default', fontWeight: '600' })}
                >
                  Dépenses répétitives
                </Link>
                {canImport && <EinvoiceImportButton onFile={einvoice.importFile} pending={einvoice.pending} />}
                <Button variant="outline" onClick={exportCsv} loading={exporting} disabled={!list.data?.total}>
                  Exporter (CSV)
                </Button>
                {canWrite && (
                  <Button onClick={() => setEditing('new')} {...expenseForm.opener}>
                    Nouvelle dépense
                  </Button>
                )}
              </div>
            </div>
            {list.isPending ? (
              <ListSkeleton label="Chargement des dépenses" columns={LIST_COLUMNS.expenses} />
            ) : !list.data ? (
              <ListPending query={list} label="Chargement des dépenses" failed="La liste n’a pas pu être chargée." />
            ) : list.data.total === 0 ? (
              <div className={styles.empty}>
                <WalletIcon size={32} />
                {filtered ? (
                  <>
                    <p>Aucune dépense ne correspond à ces filtres.</p>
                    <Button variant="outline" onClick={clearFilters}>
                      Effacer les filtres
                    </Button>
                  </>
                ) : (
                  <>
                    <p className={css({ fontWeight: '600', color: 'fg.default' })}>Pas encore de dépenses</p>
                    <p className={css({ fontSize: 'sm' })}>
                      Saisissez vos achats et frais avec leur justificatif, ou déposez ici la facture électronique d’un fournisseur
                      (Factur-X, CII ou UBL) : la dépense est remplie pour vous.
                    </p>
                    {canWrite && (
                      <Button onClick={() => setEditing('new')} {...expenseForm.opener}>
                        Nouvelle dépense
                      </Button>
                    )}
                  </>
                )}
              </div>
            ) : (
              <>
                <ResponsiveList
                  label="Dépenses"
                  testId="expenses-list"
                  rows={list.data.data}
                  rowKey={(e) => e.id}
                  onOpen={(e) => setEditing(e)}
                  dimmed={list.isPlaceholderData}
                  sort={{ by: sortBy, order: sortOrder, onSort: (sort_by, sort_order) => setQuery({ sort_by, sort_order, page: 1 }) }}
                  columns={[
                    { key: 'date', label: 'Date', sort: 'date', className: styles.number, cell: (e) => formatDateShort(e.date) },
                    {
                      key: 'supplier',
                      label: 'Fournisseur',
                      sort: 'supplier',
                      card: 'title',
                      cell: (e) => (
                        <button type="button" className={styles.link} onClick={() => setEditing(e)} {...expenseForm.opener}>
                          {e.supplier}
                        </button>
                      ),
                    },
                    {
                      key: 'category',
                      label: 'Catégorie',
                      sort: 'category',
                      card: 'subtitle',
                      cell: (e) => (
                        <>
                          {e.category_label}
                          {e.category_to_check && (
                            <span className={cx(styles.chip, styles.toCheck)} title="Catégorie choisie à l’import : à confirmer">
                              à vérifier
                            </span>
                          )}
                        </>
                      ),
                    },
                    {
                      key: 'label',
                      label: 'Libellé',
                      className: styles.muted,
                      cell: (e) => (
                        <>
                          {e.kind === 'credit_note' && (
                            <span
                              className={cx(styles.chip, styles.creditNote)}
                              title="Avoir fournisseur : vient en déduction des dépenses"
                            >
                              Avoir
                            </span>
                          )}
                          {e.label || e.invoice_number || '—'}
                        </>
                      ),
                    },
                    { key: 'vat', label: 'TVA', align: 'right', className: styles.amount, cell: (e) => money(e.vat_total, e.currency) },
                    {
                      key: 'amount',
                      label: 'Montant TTC',
                      sort: 'amount',
                      align: 'right',
                      card: 'amount',
                      className: styles.amount,
                      cell: (e) => money(e.amount, e.currency),
                    },
                    {
                      key: 'status',
                      label: 'Statut',
                      card: 'status',
                      cell: (e) => (
                        <span className={cx(styles.chip, e.status === 'paid' ? styles.paid : styles.unpaid)}>
                          {EXPENSE_STATUS_LABELS[e.status]}
                        </span>
                      ),
                    },
                    {
                      key: 'receipt',
                      label: 'Justificatif',
                      cell: (e) =>
                        e.receipt ? (
                          <a className={styles.link} href={receiptUrl(e.id)} target="_blank" rel="noreferrer" title={e.receipt.filename}>
                            Voir
                          </a>
                        ) : (
                          <span className={styles.muted}>—</span>
                        ),
                    },
                  ]}
                />
                <div className={styles.sums} data-testid="expense-sums">
                  {list.data.sums.map((s) => (
                    <span key={s.currency} className={css({ display: 'flex', gap: '4', flexWrap: 'wrap' })}>
                      <span>
                        Total TTC <span className={styles.sumValue}>{money(s.amount, s.currency)}</span>
                      </span>
                      <span>
                        TVA <span className={styles.sumValue}>{money(s.vat, s.currency)}</span>
                      </span>
                      <span>
                        dont déductible <span className={styles.sumValue}>{money(s.deductible_vat, s.currency)}</span>
                      </span>
                    </span>
                  ))}
                </div>
                <Pagination page={page} perPage={perPage} total={list.data.total} onChange={(patch) => setQuery(patch)} />
              </>
            )}
          </section>
        </EinvoiceDropZone>
      </div>
      <expenseForm.Dialog
        open={editing !== null}
        expense={editing === 'new' ? null : editing}
        imported={imported && editing !== 'new' && imported.expense.id === editing?.id ? imported : null}
        onClose={() => {
          setEditing(null);
          setImported(null);
        }}
      />
    </div>
  );
}
