import { Checkbox as Parts } from '@ark-ui/react/checkbox';
import type { Ref } from 'react';
import { cx } from '../../../../styled-system/css';
import { checkbox as checkboxRecipe } from '../../../../styled-system/recipes';
import { CheckIcon } from '../icons';

import type { CheckboxProps } from './checkbox';

/**
 * Ark's checkbox styled once: the whole line is the label, a real (visually hidden) checkbox carries the state, so
 * Space toggles it, forms read it and screen readers announce it as a checkbox.
 */
export function ArkCheckbox({
  checked,
  onChange,
  children,
  disabled,
  name,
  value,
  className,
  inputRef,
  ...aria
}: CheckboxProps & { inputRef?: Ref<HTMLInputElement> }) {
  const styles = checkboxRecipe();
  return (
    <Parts.Root
      className={cx(styles.root, className)}
      checked={checked}
      onCheckedChange={(details) => onChange(details.checked === true)}
      disabled={disabled}
      name={name}
      value={value}
    >
      <Parts.Control className={styles.control}>
        <Parts.Indicator className={styles.indicator}>
          <CheckIcon size={14} strokeWidth={3} />
        </Parts.Indicator>
      </Parts.Control>
      {children !== undefined && <Parts.Label className={styles.label}>{children}</Parts.Label>}
      <Parts.HiddenInput ref={inputRef} aria-label={aria['aria-label']} />
    </Parts.Root>
  );
}
