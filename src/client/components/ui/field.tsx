import { Field as ArkField } from '@ark-ui/react/field';
import { forwardRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { cx } from '../../../../styled-system/css';
import { withFrenchSpaces } from '../../../shared/typography-text';
import { field as fieldRecipe, input as inputRecipe } from '../../../../styled-system/recipes';

/** md: forms; sm: dense panels; inline: table cells and compact rows. */
export type FieldSize = 'md' | 'sm' | 'inline';

export interface FieldProps {
  label: ReactNode;
  /** A message under the control, announced with it (aria-describedby); hidden while there is an error. */
  helper?: ReactNode;
  /** The field's own error: marks the control aria-invalid and replaces the helper text. */
  error?: string | null;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  size?: FieldSize;
  className?: string;
  /** The control: one of the kit's Input, Textarea, AmountInput, NumberInput or Select. */
  children: ReactNode;
}

/**
 * One labelled field on Ark's Field: the label points at the control, and the control is described by the helper or
 * the error text and marked invalid, whatever kind of control sits inside (Ark's inputs read this context).
 */
export function Field({ label, helper, error, required, disabled, readOnly, size, className, children }: FieldProps) {
  const styles = fieldRecipe({ size });
  return (
    <ArkField.Root
      className={cx(styles.root, className)}
      invalid={Boolean(error)}
      required={required}
      disabled={disabled}
      readOnly={readOnly}
    >
      <ArkField.Label className={styles.label}>{label}</ArkField.Label>
      {children}
      {/* The error takes the helper's place as the control's description: Ark points aria-describedby at the helper
          only (its error part is linked by aria-errormessage, which screen readers announce far less reliably). */}
      {error ? (
        <ArkField.HelperText className={styles.errorText}>{withFrenchSpaces(error)}</ArkField.HelperText>
      ) : helper ? (
        <ArkField.HelperText className={styles.helperText}>{helper}</ArkField.HelperText>
      ) : null}
    </ArkField.Root>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> & { size?: FieldSize };

/** A text input: inside a Field it takes the field's ids and states; alone it needs an aria-label. */
export const Input = forwardRef<HTMLInputElement, InputProps>(function Input({ size, className, ...rest }, ref) {
  return <ArkField.Input ref={ref} className={cx(inputRecipe({ size }), className)} {...rest} />;
});

type TextareaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { size?: FieldSize };

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaProps>(function Textarea({ size, className, ...rest }, ref) {
  return <ArkField.Textarea ref={ref} className={cx(inputRecipe({ size, multiline: true }), className)} {...rest} />;
});

/** The class of a bare control, for the few inputs Ark has no part for (colour swatch, file picker). */
export const inputClass = (size?: FieldSize) => inputRecipe({ size });

/**
 * Out of sight but read by assistive technology and forms, as Ark hides its own native inputs: the stand-ins' native
 * inputs (select.tsx, checkbox.tsx). A style rather than a class, since those files also read Ark's field context.
 */
export const VISUALLY_HIDDEN = {
  border: '0',
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: '0',
  position: 'absolute',
  width: '1px',
  whiteSpace: 'nowrap',
  wordWrap: 'normal',
} as const;
