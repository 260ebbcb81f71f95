import { trpc } from '../trpc';
import { Field } from './ui/field';
import { Select } from './ui/select';

/**
 * The organisation's enabled currencies (Paramètres → Devises) as a select. A value no longer enabled stays
 * listed, marked, so opening an old record never changes its currency silently.
 */
export function CurrencySelect({
  value,
  onChange,
  error,
  label = 'Devise',
}: {
  value: string;
  onChange: (code: string) => void;
  error?: string | null;
  label?: string;
}) {
  const currencies = trpc.currencies.list.useQuery();
  const enabled = currencies.data?.data ?? [];
  const missing = value !== '' && currencies.isSuccess && !enabled.some((c) => c.code === value);
  const options = [
    ...(!currencies.isSuccess && value !== '' ? [{ value, label: value }] : []),
    ...enabled.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` })),
    ...(missing ? [{ value, label: `${value} (devise non activée)` }] : []),
  ];
  return (
    <Field label={label} error={error}>
      <Select value={value} onChange={onChange} options={options} />
    </Field>
  );
}
