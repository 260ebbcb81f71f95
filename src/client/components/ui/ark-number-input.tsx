import { NumberInput as Parts } from '@ark-ui/react/number-input';
import type { Ref } from 'react';
import { cx } from '../../../../styled-system/css';
import { numberInput as numberInputRecipe } from '../../../../styled-system/recipes';
import { ChevronDownIcon, ChevronUpIcon } from '../icons';
import { NUMBER_FORMAT, NUMBER_LOCALE, type NumberInputProps, readDecimalPoint } from './number-input';

/**
 * Ark's NumberInput styled once: the spin button role, arrow keys and steppers, and the surrounding Field's label,
 * description and invalid state. The text is the wrapper's (number-input.tsx), so what was typed before this code
 * arrived stays.
 */
export function ArkNumberInput({
  onChange,
  min,
  max,
  step = 1,
  unit,
  placeholder,
  size,
  disabled,
  className,
  text,
  onText,
  inputRef,
  ...aria
}: NumberInputProps & { text: string; onText: (text: string) => void; inputRef?: Ref<HTMLInputElement> }) {
  const styles = numberInputRecipe({ size, withUnit: Boolean(unit) });
  return (
    <Parts.Root
      className={cx(styles.root, className)}
      locale={NUMBER_LOCALE}
      formatOptions={NUMBER_FORMAT}
      value={text}
      min={min}
      max={max}
      step={step}
      disabled={disabled}
      // Out-of-range values stay as typed so the schema's French message names the bounds.
      clampValueOnBlur={false}
      allowOverflow
      onValueChange={({ value: typed, valueAsNumber }) => {
        onText(typed);
        onChange(typed === '' ? Number.NaN : valueAsNumber);
      }}
    >
      <Parts.Control className={styles.control} onBeforeInputCapture={readDecimalPoint}>
        <Parts.Input ref={inputRef} className={styles.input} placeholder={placeholder} aria-label={aria['aria-label']} />
        {unit && (
          <span className={styles.unit} aria-hidden="true">
            {unit}
          </span>
        )}
        <Parts.IncrementTrigger className={styles.incrementTrigger} aria-label="Augmenter">
          <ChevronUpIcon />
        </Parts.IncrementTrigger>
        <Parts.DecrementTrigger className={styles.decrementTrigger} aria-label="Diminuer">
          <ChevronDownIcon />
        </Parts.DecrementTrigger>
      </Parts.Control>
    </Parts.Root>
  );
}
