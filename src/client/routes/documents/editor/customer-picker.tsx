import { useDeferredValue, useState } from 'react';
import { css } from '../../../../../styled-system/css';
import { trpc } from '../../../trpc';
import { Combobox } from '../../../components/ui/combobox';
import { Button } from '../../../components/ui/button';
import { lazyPage } from '../../../lib/lazy-page';
import { LazyBoundary } from '../../../components/page-loading';
import type { CustomerRow } from '../../customers/types';
import type { Address } from '../../../../shared/schemas/customer';

/**
 * The customer form comes in its own chunk (the editor's first load), fetched when the button is pointed at or
 * focused, and mounted from the first click on (so that its closing animation still plays).
 */
const customerForm = lazyPage(
  () => import('../../customers/customer-form-dialog'),
  (m) => m.CustomerFormDialog,
);

export interface PickedCustomer {
  id: number;
  name: string;
  maturity: number;
  currency: string;
  address: Address;
  shipping: Address;
}

const optionLabel = (c: { name: string; number: string }) => `${c.name} — ${c.number}`;

/** The document's customer: searched on the server by name, number, e-mail or SIREN, or created on the spot. */
export function CustomerPicker({
  value,
  selectedName,
  onChange,
  error,
}: {
  value: number | null;
  selectedName?: string;
  onChange: (customer: PickedCustomer | null) => void;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const [creating, setCreating] = useState(false);
  const [asked, setAsked] = useState(false);
  // The customer picked here, as an option: one just created is not in the search results yet (and `selectedName` is
  // the saved document's), and the combobox shows only a value its options hold, so the field would stay empty.
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const customers = trpc.customers.list.useQuery(
    { search: deferred || undefined, per_page: 20, sort_by: 'name', sort_order: 'asc' },
    { placeholderData: (previous) => previous },
  );
  const rows = customers.data?.data ?? [];
  const options = rows.map((c) => ({ value: String(c.id), label: optionLabel(c) }));
  if (picked && picked.value === String(value) && !options.some((o) => o.value === picked.value)) options.unshift(picked);
  const pick = (c: CustomerRow | (typeof rows)[number]) => {
    setPicked({ value: String(c.id), label: optionLabel(c) });
    onChange({ id: c.id, name: c.name, maturity: c.maturity, currency: c.currency, address: c.address, shipping: c.shipping });
  };
  return (
    <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}>
      <Combobox
        className={css({ flex: '1' })}
        label="Client"
        placeholder="Rechercher un client (nom, numéro, SIREN)"
        options={options}
        value={value ? String(value) : ''}
        selectedLabel={selectedName}
        onSearch={setSearch}
        emptyText={deferred ? 'Aucun client ne correspond' : 'Aucun client pour l’instant'}
        error={error}
        onChange={(id) => {
          const found = rows.find((c) => String(c.id) === id);
          if (found) pick(found);
          else if (!id) onChange(null);
        }}
      />
      <Button
        variant="outline"
        onPointerEnter={() => void customerForm.preload()}
        onFocus={() => void customerForm.preload()}
        onClick={() => {
          setAsked(true);
          setCreating(true);
        }}
        className={css({ mb: error ? '5' : '0' })}
      >
        Nouveau client
      </Button>
      {asked && (
        <LazyBoundary fallback={null}>
          <customerForm.Component
            open={creating}
            customer={null}
            onClose={() => setCreating(false)}
            onSaved={(created) => {
              setCreating(false);
              pick(created);
            }}
          />
        </LazyBoundary>
      )}
    </div>
  );
}
