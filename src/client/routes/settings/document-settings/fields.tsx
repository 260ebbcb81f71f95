import { createContext, useContext, useId, type ReactNode } from 'react';
import { css, cx } from '../../../../../styled-system/css';
import { inputStyle } from '../../../components/ui/text-field';

/** The draft's validation messages by dotted path ('margins.first_page.top'), shown beside their fields. */
export const ErrorsContext = createContext<ReadonlyMap<string, string>>(new Map());
const useError = (path?: string) => {
  const errors = useContext(ErrorsContext);
  return path ? errors.get(path) : undefined;
};

const styles = {
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', minW: '0' }),
  label: css({ fontSize: 'xs', fontWeight: '600', color: 'fg.muted' }),
  input: css({ h: '9', px: '2.5' }),
  unit: css({
    position: 'absolute',
    right: '2.5',
    top: '50%',
    transform: 'translateY(-50%)',
    fontSize: 'xs',
    color: 'fg.subtle',
    pointerEvents: 'none',
  }),
  error: css({ fontSize: 'xs', color: 'danger' }),
  check: css({
    display: 'flex',
    gap: '2',
    alignItems: 'center',
    fontSize: 'sm',
    cursor: 'pointer',
    minH: '9',
  }),
  swatch: css({
    w: '9',
    h: '9',
    p: '1',
    borderRadius: 'lg',
    borderWidth: '1px',
    borderColor: 'border.default',
    bg: 'bg.surface',
    cursor: 'pointer',
    flexShrink: 0,
  }),
};

/** `context` completes the label for screen readers where the card around the field says it to the eye ('Haut' of which page). */
function Field({
  id,
  label,
  context,
  error,
  children,
}: {
  id: string;
  label: string;
  context?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
        {context && <span className={css({ srOnly: true })}> ({context})</span>}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface NumberFieldProps {
  label: string;
  context?: string;
  value: number | undefined;
  onChange: (value: number) => void;
  /** The draft path whose validation message shows under the field. */
  path?: string;
  unit?: string;
  min?: number;
  max?: number;
  step?: number;
  placeholder?: string;
}

/** An empty field is NaN in the draft, so validation says 'Un nombre est attendu' instead of saving a 0. */
export function NumberField({ label, context, value, onChange, path, unit, min, max, step = 1, placeholder }: NumberFieldProps) {
  const id = useId();
  const error = useError(path);
  return (
    <Field id={id} label={label} context={context} error={error}>
      <div className={css({ position: 'relative' })}>
        <input
          id={id}
          type="number"
          inputMode="decimal"
          className={cx(inputStyle, styles.input, unit ? css({ pr: '9' }) : undefined)}
          value={value === undefined || Number.isNaN(value) ? '' : value}
          min={min}
          max={max}
          step={step}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value.replace(',', '.')))}
        />
        {unit && <span className={styles.unit}>{unit}</span>}
      </div>
    </Field>
  );
}

export function TextInput({
  label,
  context,
  value,
  onChange,
  path,
  placeholder,
  mono,
}: {
  context?: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  path?: string;
  placeholder?: string;
  mono?: boolean;
}) {
  const id = useId();
  const error = useError(path);
  return (
    <Field id={id} label={label} context={context} error={error}>
      <input
        id={id}
        className={cx(inputStyle, styles.input, mono && css({ fontFamily: 'mono' }))}
        value={value}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

export function TextAreaField({
  label,
  value,
  onChange,
  path,
  rows = 3,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  path?: string;
  rows?: number;
  placeholder?: string;
}) {
  const id = useId();
  const error = useError(path);
  return (
    <Field id={id} label={label} error={error}>
      <textarea
        id={id}
        rows={rows}
        placeholder={placeholder}
        className={cx(inputStyle, css({ h: 'auto', py: '2', resize: 'vertical' }))}
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

export interface Option<V extends string | number> {
  value: V;
  label: string;
}

export function SelectField<V extends string | number>({
  label,
  value,
  onChange,
  options,
  path,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  options: readonly Option<V>[];
  path?: string;
}) {
  const id = useId();
  const error = useError(path);
  return (
    <Field id={id} label={label} error={error}>
      <select
        id={id}
        className={cx(inputStyle, styles.input)}
        value={String(value)}
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          const picked = options.find((o) => String(o.value) === e.target.value);
          if (picked) onChange(picked.value);
        }}
      >
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function CheckField({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label className={cx(styles.check, disabled && css({ opacity: 0.55, cursor: 'not-allowed' }))}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** '#abc' → '#aabbcc': the colour picker only takes six digits. */
const sixDigits = (value: string) =>
  /^#[0-9a-f]{3}$/i.test(value)
    ? `#${[...value.slice(1)].map((c) => c + c).join('')}`
    : /^#[0-9a-f]{6}/i.test(value)
      ? value.slice(0, 7)
      : '#000000';

/** A colour as #RRGGBB, typed or picked; empty means 'inherit'. */
export function ColorField({
  label,
  value,
  onChange,
  path,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
  path?: string;
}) {
  const id = useId();
  const error = useError(path);
  return (
    <Field id={id} label={label} error={error}>
      <div className={css({ display: 'flex', gap: '1.5' })}>
        <input
          id={id}
          className={cx(inputStyle, styles.input, css({ fontFamily: 'mono' }))}
          value={value ?? ''}
          placeholder="Par défaut"
          aria-invalid={error ? true : undefined}
          onChange={(e) => onChange(e.target.value.trim())}
        />
        <input
          type="color"
          aria-label={`${label} (nuancier)`}
          className={styles.swatch}
          value={sixDigits(value ?? '')}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
        />
      </div>
    </Field>
  );
}
