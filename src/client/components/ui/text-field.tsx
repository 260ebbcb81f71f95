import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';
import { Field, Input, inputClass } from './field';

/** The kit's input look as a class, for the few controls that are not an Ark part (the colour swatch, a file input). */
export const inputStyle = inputClass();

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> & { label: string; error?: string | null; hint?: ReactNode };

/** The common case of the field kit in one line: a labelled text input with its hint or error (see field.tsx). */
export const TextField = forwardRef<HTMLInputElement, Props>(function TextField(
  { label, error, hint, className, required, disabled, readOnly, ...rest },
  ref,
) {
  return (
    <Field label={label} error={error} helper={hint} className={className} required={required} disabled={disabled} readOnly={readOnly}>
      <Input ref={ref} {...rest} />
    </Field>
  );
});
