import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { EXPENSE_STATUSES, EXPENSE_STATUS_LABELS } from '../../../shared/schemas/expense';
import { commaToDot, numericOnly } from '../../../shared/input';
import { trpc } from '../../trpc';
import { inputStyle } from '../../components/ui/text-field';
import { listStyles } from '../../components/ui/list';
import { asPeriod } from '../documents/document-filters';
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

const styles = {
  ...listStyles,
  pair: css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2' }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', minW: '0' }),
  small: css({ fontSize: 'xs', color: 'fg.muted' }),
  check: css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', cursor: 'pointer', mt: '1' }),
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
      <label className={styles.label} htmlFor="expense-search">
        Rechercher
      </label>
      <input
        id="expense-search"
        className={inputStyle}
        type="search"
        placeholder="Fournisseur, libellé, n° de facture"
        defaultValue={query.search}
        onChange={(e) => set({ search: e.target.value.trim() })}
      />

      <PeriodFilter period={period} from={query.from} to={query.to} set={set} />

      <label className={styles.label} htmlFor="expense-category">
        Catégorie
      </label>
      <select id="expense-category" className={inputStyle} value={query.category ?? ''} onChange={(e) => set({ category: e.target.value })}>
        <option value="">Toutes</option>
        {(categories.data?.data ?? []).map((c) => (
          <option key={c.code} value={c.code}>
            {c.archived ? `${c.label} (archivée)` : c.label}
          </option>
        ))}
      </select>
      <Link href="/settings/accounting" className={css({ fontSize: 'xs', color: 'accent.default', fontWeight: '600' })}>
        Gérer les catégories et leurs comptes
      </Link>

      <label className={styles.label} htmlFor="expense-supplier">
        Fournisseur
      </label>
      <input
        id="expense-supplier"
        className={inputStyle}
        placeholder="Tous"
        defaultValue={query.supplier}
        onChange={(e) => set({ supplier: e.target.value.trim() })}
      />

      <label className={styles.label} htmlFor="expense-status">
        Statut
      </label>
      <select id="expense-status" className={inputStyle} value={query.status ?? ''} onChange={(e) => set({ status: e.target.value })}>
        <option value="">Tous</option>
        {EXPENSE_STATUSES.map((s) => (
          <option key={s} value={s}>
            {EXPENSE_STATUS_LABELS[s]}
          </option>
        ))}
      </select>

      <label className={styles.label} htmlFor="expense-kind">
        Type
      </label>
      <select id="expense-kind" className={inputStyle} value={query.kind ?? ''} onChange={(e) => set({ kind: e.target.value })}>
        <option value="">Dépenses et avoirs</option>
        <option value="expense">Dépenses</option>
        <option value="credit_note">Avoirs fournisseurs</option>
      </select>

      <label className={styles.check}>
        <input
          type="checkbox"
          checked={query.to_check === 'true'}
          onChange={(e) => set({ to_check: e.target.checked ? 'true' : undefined })}
        />
        Catégorie à vérifier
      </label>

      <span className={styles.label}>Montant TTC</span>
      <div className={styles.pair}>
        <AmountInput label="Minimum" value={query.min_amount} onChange={(v) => set({ min_amount: v })} />
        <AmountInput label="Maximum" value={query.max_amount} onChange={(v) => set({ max_amount: v })} />
      </div>
    </aside>
  );
}

function AmountInput({ label, value, onChange }: { label: string; value: string | undefined; onChange: (value: string) => void }) {
  return (
    <label className={styles.field}>
      <span className={styles.small}>{label}</span>
      <input
        className={inputStyle}
        inputMode="decimal"
        placeholder="0,00"
        defaultValue={value?.replace('.', ',')}
        onChange={(e) => onChange(numericOnly(commaToDot(e.target.value)).replace(/\.$/, ''))}
      />
    </label>
  );
}
