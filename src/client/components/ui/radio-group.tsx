import { RadioGroup as ArkRadioGroup } from '@ark-ui/react';
import { css, cx } from '../../../../styled-system/css';

const styles = {
  root: css({ display: 'flex', flexDirection: 'column', gap: '1.5', fontSize: 'sm' }),
  label: css({ fontWeight: '600' }),
  items: css({ display: 'flex', flexWrap: 'wrap', gap: '2' }),
  // Options too long to sit side by side (a sentence each) go one under the other, each as tall as its text.
  vertical: css({ flexDirection: 'column', alignItems: 'stretch', '& > label': { h: 'auto', minH: '9', py: '1.5' } }),
  item: css({
    display: 'inline-flex',
    alignItems: 'center',
    gap: '2',
    px: '3',
    h: '9',
    borderRadius: 'lg',
    borderWidth: '1px',
    borderColor: 'border.default',
    bg: 'bg.surface',
    cursor: 'pointer',
    userSelect: 'none',
    _hover: { borderColor: 'border.strong' },
    '&[data-state=checked]': { borderColor: 'accent.default', bg: 'accent.subtle', color: 'accent.fg', fontWeight: '600' },
    '&[data-focus-visible]': { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
    '&[data-disabled]': { cursor: 'default', opacity: 0.6 },
  }),
  control: css({
    w: '4',
    h: '4',
    borderRadius: 'full',
    borderWidth: '1.5px',
    borderColor: 'border.strong',
    bg: 'bg.surface',
    flexShrink: 0,
    '&[data-state=checked]': { borderColor: 'accent.default', borderWidth: '5px' },
  }),
};

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
      <ArkRadioGroup.Label className={hideLabel ? css({ srOnly: true }) : styles.label}>{label}</ArkRadioGroup.Label>
      <div className={cx(styles.items, orientation === 'vertical' && styles.vertical)}>
        {options.map((option) => (
          <ArkRadioGroup.Item key={option.value} value={option.value} className={styles.item}>
            <ArkRadioGroup.ItemControl className={styles.control} />
            <ArkRadioGroup.ItemText>{option.label}</ArkRadioGroup.ItemText>
            <ArkRadioGroup.ItemHiddenInput />
          </ArkRadioGroup.Item>
        ))}
      </div>
    </ArkRadioGroup.Root>
  );
}
