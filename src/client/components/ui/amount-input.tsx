import { forwardRef, type InputHTMLAttributes } from 'react';
import { formatAmountInput } from '../../../shared/format';
import { type FieldSize, Input } from './field';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'size' | 'type'> & {
  value: string;
  onChange: (value: string) => void;
  size?: FieldSize;
  /** Decimals shown at least once tidied (2 for money, 0 for a quantity typed whole). */
  minDecimals?: number;
};

/**
 * An amount typed as text and tidied the French way when the field loses focus ('1200.5' → '1 200,50'), through the
 * shared formatter: the value stays a decimal string (money.ts reads it exactly), never a float, and what does not
 * read as an amount stays as typed so the field's error can name it.
 */
export const AmountInput = forwardRef<HTMLInputElement, Props>(function AmountInput(
  { value, onChange, onBlur, minDecimals = 2, className, ...rest },
  ref,
) {
  return (
    <Input
      ref={ref}
      inputMode="decimal"
      autoComplete="off"
      className={className}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => {
        const tidy = formatAmountInput(value, minDecimals);
        if (tidy !== value) onChange(tidy);
        onBlur?.(e);
      }}
      {...rest}
    />
  );
});
