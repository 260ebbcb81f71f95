import { useDeferredValue, useState } from 'react';
import { DOCUMENT_TYPE_TABLE } from '../../../shared/document-types';
import { css } from '../../../../styled-system/css';
import type { DocumentType } from '../../../shared/schemas/document';
import { statusLabel } from '../../../shared/status';
import { commaToDot, numericOnly } from '../../../shared/input';
import { trpc } from '../../trpc';
import { Combobox } from '../../components/ui/combobox';
import { Field, Input } from '../../components/ui/field';
import { FilterField } from '../../components/ui/filter-field';
import { Select } from '../../components/ui/select';
import { listStyles } from '../../components/ui/list';
import { PeriodFilter } from '../../components/period-filter';

/** The URL keys that narrow the list (sorting and paging do not count as filters). */
export const FILTER_KEYS = ['search', 'status', 'period', 'from', 'to', 'min_amount', 'max_amount', 'customer'] as const;

export const hasFilters = (query: Record<string, string>) => FILTER_KEYS.some((key) => Boolean(query[key]));

import { asPeriod } from '../../../shared/list-inputs';

export { asPeriod };

const styles = {
  ...listStyles,
  pair: css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2' }),
  // The shared combobox labels its field in sentence case; in this panel every label is a small uppercase heading.
  customer: css({
    '& [data-part=label]': { fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted' },
  }),
};

type SetQuery = (patch: Record<string, string | number | undefined>) => void;

/**
 * The filter side panel; every value lives in the URL. Text inputs are uncontrolled (typing is not trimmed under
 * the cursor): the page remounts this panel to clear them.
 */
export function DocumentFilters({ type, query, setQuery }: { type: DocumentType; query: Record<string, string>; setQuery: SetQuery }) {
  const set = (patch: Record<string, string | undefined>) => setQuery({ ...patch, page: 1 });
  const period = asPeriod(query.period);
  const amountLabel = DOCUMENT_TYPE_TABLE[type].showsTotal ? 'Montant TTC' : null;
  return (
    <aside id="document-filters" className={styles.sidebar} aria-label="Filtres">
      <FilterField label="Rechercher">
        <Input
          type="search"
          placeholder="Numéro, client, montant"
          defaultValue={query.search}
          onChange={(e) => set({ search: e.target.value.trim() })}
        />
      </FilterField>

      <FilterField label="Statut">
        <Select
          value={query.status ?? ''}
          onChange={(status) => set({ status })}
          options={[
            { value: '', label: 'Tous' },
            ...DOCUMENT_TYPE_TABLE[type].statusFilters.map((status) => ({ value: status, label: statusLabel(status, type) })),
          ]}
        />
      </FilterField>

      <PeriodFilter period={period} from={query.from} to={query.to} set={set} />

      {amountLabel && (
        <>
          <span className={styles.label}>{amountLabel}</span>
          <div className={styles.pair}>
            <AmountBound label="Minimum" value={query.min_amount} onChange={(v) => set({ min_amount: v })} />
            <AmountBound label="Maximum" value={query.max_amount} onChange={(v) => set({ max_amount: v })} />
          </div>
        </>
      )}

      <CustomerFilter value={query.customer} onChange={(customer) => set({ customer })} />
    </aside>
  );
}

/**
 * One end of an amount range, typed freely (uncontrolled: not tidied under the cursor) and read the French way:
 * comma to dot, then digits only. Shared by the expenses' filter panel.
 */
export function AmountBound({ label, value, onChange }: { label: string; value: string | undefined; onChange: (value: string) => void }) {
  return (
    <Field label={label} size="sm">
      <Input
        inputMode="decimal"
        placeholder="0,00"
        defaultValue={value?.replace('.', ',')}
        onChange={(e) => onChange(numericOnly(commaToDot(e.target.value)).replace(/\.$/, ''))}
      />
    </Field>
  );
}

/** Customers searched on the server (an organisation may have thousands); archived ones too, as old documents name them. */
function CustomerFilter({ value, onChange }: { value: string | undefined; onChange: (value: string) => void }) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const id = Number(value) || undefined;
  const customers = trpc.customers.list.useQuery(
    { search: deferred || undefined, archived: 'include', per_page: 20, sort_by: 'name', sort_order: 'asc' },
    { placeholderData: (previous) => previous },
  );
  const chosen = trpc.customers.get.useQuery({ id: id ?? 0 }, { enabled: Boolean(id), staleTime: 60_000 });
  return (
    <Combobox
      className={styles.customer}
      label="Client"
      placeholder="Tous les clients"
      options={(customers.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
      value={id ? String(id) : ''}
      selectedLabel={chosen.data?.name}
      onSearch={setSearch}
      emptyText={deferred ? 'Aucun client ne correspond' : 'Aucun client pour l’instant'}
      onChange={onChange}
    />
  );
}
