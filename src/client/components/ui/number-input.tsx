import { NumberInput as ArkNumberInput } from '@ark-ui/react/number-input';
import { useEffect, useState } from 'react';
import { cx } from '../../../../styled-system/css';
import { numberInput as numberInputRecipe } from '../../../../styled-system/recipes';
import { ChevronDownIcon, ChevronUpIcon } from '../icons';
import type { FieldSize } from './field';

const LOCALE = 'fr-FR';
// Typed digits are kept as typed; the steppers and arrow keys format the French way ('12,5'), without grouping so a
// year or a number of days never reads '2 026'.
const FORMAT: Intl.NumberFormatOptions = { useGrouping: false, maximumFractionDigits: 6 };
const toText = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? '' : new Intl.NumberFormat(LOCALE, FORMAT).format(value);

interface Props {
  /** NaN or undefined when empty: the caller's schema then says a number is expected, rather than saving a 0. */
  value: number | undefined;
  onChange: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
  /** A short unit shown inside the box ('mm', 'jours'); the label should name it too for screen readers. */
  unit?: string;
  placeholder?: string;
  size?: FieldSize;
  disabled?: boolean;
  className?: string;
  'aria-label'?: string;
}

/**
 * A count or a measure (days, millimetres, a rank), not money: Ark's NumberInput gives the spin button role, arrow
 * keys and steppers, and reads the surrounding Field for its label, description and invalid state. Amounts use
 * AmountInput, whose value stays a decimal string.
 */
export function NumberInput({ value, onChange, min, max, step = 1, unit, placeholder, size, disabled, className, ...aria }: Props) {
  const styles = numberInputRecipe({ size, withUnit: Boolean(unit) });
  // The text is the field's own while typing ('12,' is on the way to 12,5); it follows the value when the value
  // changes from outside.
  const [text, setText] = useState(() => toText(value));
  useEffect(() => {
    setText((current) => {
      const shown = current === '' ? Number.NaN : Number(current.replace(/\s/g, '').replace(',', '.'));
      const same = (Number.isNaN(shown) && (value === undefined || Number.isNaN(value))) || shown === value;
      return same ? current : toText(value);
    });
  }, [value]);
  return (
    <ArkNumberInput.Root
      className={cx(styles.root, className)}
      locale={LOCALE}
      formatOptions={FORMAT}
      value={text}
      min={min}
      max={max}
      step={step}
      disabled={disabled}
      // Out-of-range values stay as typed so the schema's French message names the bounds.
      clampValueOnBlur={false}
      allowOverflow
      onValueChange={({ value: typed, valueAsNumber }) => {
        setText(typed);
        onChange(typed === '' ? Number.NaN : valueAsNumber);
      }}
    >
      <ArkNumberInput.Control
        className={styles.control}
        // Ark's French parser refuses '.', yet a French numeric keypad types it and people write '1.5': read it as the
        // decimal comma (caught before Ark's own check, which would drop the keystroke).
        onBeforeInputCapture={(event) => {
          const typed = (event.nativeEvent as InputEvent).data;
          if (!typed?.includes('.')) return;
          event.preventDefault();
          document.execCommand('insertText', false, typed.replaceAll('.', ','));
        }}
      >
        <ArkNumberInput.Input className={styles.input} placeholder={placeholder} aria-label={aria['aria-label']} />
        {unit && (
          <span className={styles.unit} aria-hidden="true">
            {unit}
          </span>
        )}
        <ArkNumberInput.IncrementTrigger className={styles.incrementTrigger} aria-label="Augmenter">
          <ChevronUpIcon />
        </ArkNumberInput.IncrementTrigger>
        <ArkNumberInput.DecrementTrigger className={styles.decrementTrigger} aria-label="Diminuer">
          <ChevronDownIcon />
        </ArkNumberInput.DecrementTrigger>
      </ArkNumberInput.Control>
    </ArkNumberInput.Root>
  );
}
