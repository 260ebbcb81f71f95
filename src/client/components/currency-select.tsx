import { useId } from 'react';
import { css } from '../../../styled-system/css';
import { trpc } from '../trpc';
import { inputStyle } from './ui/text-field';

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
  const id = useId();
  const currencies = trpc.currencies.list.useQuery();
  const enabled = currencies.data?.data ?? [];
  const missing = value !== '' && currencies.isSuccess && !enabled.some((c) => c.code === value);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <label htmlFor={id} className={css({ fontSize: 'sm', fontWeight: '600', color: 'fg.default' })}>
        {label}
      </label>
      <select
        id={id}
        className={inputStyle}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-message` : undefined}
      >
        {!currencies.isSuccess && <option value={value}>{value}</option>}
        {enabled.map((c) => (
          <option key={c.code} value={c.code}>
            {c.code} — {c.name}
          </option>
        ))}
        {missing && <option value={value}>{value} (devise non activée)</option>}
      </select>
      {error && (
        <p id={`${id}-message`} className={css({ fontSize: 'xs', color: 'danger' })}>
          {error}
        </p>
      )}
    </div>
  );
}
