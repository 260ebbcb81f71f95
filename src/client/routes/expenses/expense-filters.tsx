import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { EXPENSE_STATUSES, EXPENSE_STATUS_LABELS } from '../../../shared/expense-statuses';
import { trpc } from '../../trpc';
import { Input } from '../../components/ui/field';
import { FilterField } from '../../components/ui/filter-field';
import { Select } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';
import { listStyles } from '../../components/ui/list';
import { AmountBound, asPeriod } from '../documents/document-filters';
import { PeriodFilter } from '../../components/period-filter';

/** The URL keys that narrow the list (sorting and paging do not count as filters). */
export const EXPENSE_FILTER_KEYS = [
  'search',
  'status',
  'kind',
  'to_check',
  'period',
  'from',
  'to',
  'category',
  'supplier',
  'min_amount',
  'max_amount',
] as const;

export const hasExpenseFilters = (query: Record<string, string>) => EXPENSE_FILTER_KEYS.some((key) => Boolean(query[key]));

const KINDS = [
  { value: '', label: 'Dépenses et avoirs' },
  { value: 'expense', label: 'Dépenses' },
  { value: 'credit_note', label: 'Avoirs fournisseurs' },
];
const STATUSES = [{ value: '', label: 'Tous' }, ...EXPENSE_STATUSES.map((s) => ({ value: s, label: EXPENSE_STATUS_LABELS[s] }))];

const styles = {
  ...listStyles,
  pair: css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2' }),
};

type SetQuery = (patch: Record<string, string | number | undefined>) => void;

/**
 * The documents list's filter panel, for expenses: every value in the URL; text inputs uncontrolled (the page
 * remounts the panel to clear them).
 */
export function ExpenseFilters({ query, setQuery }: { query: Record<string, string>; setQuery: SetQuery }) {
  const set = (patch: Record<string, string | undefined>) => setQuery({ ...patch, page: 1 });
  const period = asPeriod(query.period);
  const categories = trpc.expenses.categories.useQuery(undefined, { staleTime: 60_000 });
  return (
    <aside id="expense-filters" className={styles.sidebar} aria-label="Filtres">
      <FilterField label="Rechercher">
        <Input
          type="search"
          placeholder="Fournisseur, libellé, n° de facture"
          defaultValue={query.search}
          onChange={(e) => set({ search: e.target.value.trim() })}
        />
      </FilterField>

      <PeriodFilter period={period} from={query.from} to={query.to} set={set} />

      <FilterField label="Catégorie">
        <Select
          value={query.category ?? ''}
          onChange={(category) => set({ category })}
          options={[
            { value: '', label: 'Toutes' },
            ...(categories.data?.data ?? []).map((c) => ({ value: c.code, label: c.archived ? `${c.label} (archivée)` : c.label })),
          ]}
        />
      </FilterField>
      <Link href="/settings/accounting" className={css({ fontSize: 'xs', color: 'accent.default', fontWeight: '600' })}>
        Gérer les catégories et leurs comptes
      </Link>

      <FilterField label="Fournisseur">
        <Input placeholder="Tous" defaultValue={query.supplier} onChange={(e) => set({ supplier: e.target.value.trim() })} />
      </FilterField>

      <FilterField label="Statut">
        <Select value={query.status ?? ''} onChange={(status) => set({ status })} options={STATUSES} />
      </FilterField>

      <FilterField label="Type">
        <Select value={query.kind ?? ''} onChange={(kind) => set({ kind })} options={KINDS} />
      </FilterField>

      <Checkbox checked={query.to_check === 'true'} onChange={(checked) => set({ to_check: checked ? 'true' : undefined })}>
        Catégorie à vérifier
      </Checkbox>

      <span className={styles.label}>Montant TTC</span>
      <div className={styles.pair}>
        <AmountBound label="Minimum" value={query.min_amount} onChange={(v) => set({ min_amount: v })} />
        <AmountBound label="Maximum" value={query.max_amount} onChange={(v) => set({ max_amount: v })} />
      </div>
    </aside>
  );
}
