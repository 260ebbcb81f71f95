import { useDeferredValue, useState } from 'react';
import { trpc } from '../../../trpc';
import { Combobox } from '../../../components/ui/combobox';
import type { TaxLine } from '../../../../shared/schemas/document';

export interface PickedItem {
  code: string;
  sku: string;
  name: string;
  description: string;
  unit: string;
  unit_price: number;
  kind: 'goods' | 'service';
  taxes: TaxLine[];
}

/** Fills a line from the catalogue (active items only); the line stays free to edit afterwards. */
export function ItemPicker({
  onPick,
  taxes,
}: {
  onPick: (item: PickedItem) => void;
  taxes: { id: number; title: string; rate: number }[];
}) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const items = trpc.items.list.useQuery(
    { search: deferred || undefined, active: 'active', per_page: 20, sort_by: 'name', sort_order: 'asc' },
    { placeholderData: (previous) => previous },
  );
  const rows = items.data?.data ?? [];
  return (
    <Combobox
      label="Article du catalogue"
      placeholder="Rechercher un article (nom, code)"
      options={rows.map((i) => ({ value: String(i.id), label: i.code ? `${i.code} — ${i.name}` : i.name }))}
      value=""
      onSearch={setSearch}
      emptyText={deferred ? 'Aucun article ne correspond' : 'Aucun article actif dans le catalogue'}
      onChange={(id) => {
        const found = rows.find((i) => String(i.id) === id);
        if (!found) return;
        onPick({
          code: found.code,
          sku: found.sku,
          name: found.name,
          description: found.description,
          unit: found.unit,
          unit_price: found.unit_price,
          kind: found.kind,
          taxes: found.tax_ids.flatMap((taxId) => taxes.filter((t) => t.id === taxId).map((t) => ({ title: t.title, rate: t.rate }))),
        });
      }}
    />
  );
}
