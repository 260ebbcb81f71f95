import { RadioGroup as ArkRadioGroup } from '@ark-ui/react';
import { cx } from '../../../../styled-system/css';
import { radioGroup } from '../../../../styled-system/recipes';

export interface RadioOption {
  value: string;
  label: string;
}

/**
 * Ark's radio group styled once: one choice among a few, shown side by side. Arrow keys move the choice, Tab leaves
 * the group; the label names the group for screen readers.
 */
export function RadioGroup({
  label,
  options,
  value,
  onChange,
  disabled,
  name,
  className,
  hideLabel,
  orientation = 'horizontal',
}: {
  label: string;
  options: readonly RadioOption[];
  /** '' when nothing is chosen. */
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  name?: string;
  className?: string;
  /** The label only for screen readers, where the options speak for themselves to the eye. */
  hideLabel?: boolean;
  orientation?: 'horizontal' | 'vertical';
}) {
  const styles = radioGroup({ orientation, hideLabel });
  return (
    <ArkRadioGroup.Root
      className={cx(styles.root, className)}
      value={value || null}
      onValueChange={(d) => {
        if (d.value !== null) onChange(d.value);
      }}
      disabled={disabled}
      name={name}
      orientation={orientation}
    >
      <ArkRadioGroup.Label className={styles.label}>{label}</ArkRadioGroup.Label>
      <div className={styles.items}>
        {options.map((option) => (
          <ArkRadioGroup.Item key={option.value} value={option.value} className={styles.item}>
            <ArkRadioGroup.ItemControl className={styles.itemControl} />
            <ArkRadioGroup.ItemText className={styles.itemText}>{option.label}</ArkRadioGroup.ItemText>
            <ArkRadioGroup.ItemHiddenInput />
          </ArkRadioGroup.Item>
        ))}
      </div>
    </ArkRadioGroup.Root>
  );
}
