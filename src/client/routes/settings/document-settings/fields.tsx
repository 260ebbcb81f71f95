import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { css } from '../../../../../styled-system/css';
import { Checkbox } from '../../../components/ui/checkbox';
import { Field, Input, Textarea } from '../../../components/ui/field';
import { NumberInput } from '../../../components/ui/number-input';
import { Select } from '../../../components/ui/select';

/** The draft's validation messages by dotted path ('margins.first_page.top'), shown beside their fields. */
export const ErrorsContext = createContext<ReadonlyMap<string, string>>(new Map());
const useError = (path?: string) => {
  const errors = useContext(ErrorsContext);
  return path ? errors.get(path) : undefined;
};

const styles = {
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
function fieldLabel(label: string, context?: string): ReactNode {
  if (!context) return label;
  return (
    <>
      {label}
      <span className={css({ srOnly: true })}> ({context})</span>
    </>
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
  return (
    <Field size="sm" label={fieldLabel(label, context)} error={useError(path)}>
      <NumberInput size="sm" value={value} onChange={onChange} unit={unit} min={min} max={max} step={step} placeholder={placeholder} />
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
  return (
    <Field size="sm" label={fieldLabel(label, context)} error={useError(path)}>
      <Input
        size="sm"
        className={mono ? css({ fontFamily: 'mono' }) : undefined}
        value={value}
        placeholder={placeholder}
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
  return (
    <Field size="sm" label={label} error={useError(path)}>
      <Textarea rows={rows} placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
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
  // The kit's select speaks strings; numbers (a weight, a span) go back to their own type here.
  const choices = useMemo(() => options.map((o) => ({ value: String(o.value), label: o.label })), [options]);
  return (
    <Field size="sm" label={label} error={useError(path)}>
      <Select
        size="sm"
        value={String(value)}
        options={choices}
        onChange={(picked) => {
          const option = options.find((o) => String(o.value) === picked);
          if (option) onChange(option.value);
        }}
      />
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
    <Checkbox checked={checked} disabled={disabled} onChange={onChange}>
      {label}
    </Checkbox>
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
  return (
    <Field size="sm" label={label} error={useError(path)}>
      <div className={css({ display: 'flex', gap: '1.5' })}>
        <Input
          size="sm"
          className={css({ fontFamily: 'mono' })}
          value={value ?? ''}
          placeholder="Par défaut"
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
