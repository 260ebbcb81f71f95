import { Checkbox as ArkCheckbox } from '@ark-ui/react/checkbox';
import type { ReactNode } from 'react';
import { cx } from '../../../../styled-system/css';
import { checkbox as checkboxRecipe } from '../../../../styled-system/recipes';
import { CheckIcon } from '../icons';

interface Props {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Visible text; without it, give an aria-label (a checkbox in a table row). */
  children?: ReactNode;
  'aria-label'?: string;
  disabled?: boolean;
  name?: string;
  value?: string;
  className?: string;
}

/**
 * Ark's checkbox styled once: the whole line is the label, a real (visually hidden) checkbox carries the state, so
 * Space toggles it, forms read it and screen readers announce it as a checkbox.
 */
export function Checkbox({ checked, onChange, children, disabled, name, value, className, ...aria }: Props) {
  const styles = checkboxRecipe();
  return (
    <ArkCheckbox.Root
      className={cx(styles.root, className)}
      checked={checked}
      onCheckedChange={(details) => onChange(details.checked === true)}
      disabled={disabled}
      name={name}
      value={value}
    >
      <ArkCheckbox.Control className={styles.control}>
        <ArkCheckbox.Indicator className={styles.indicator}>
          <CheckIcon size={14} strokeWidth={3} />
        </ArkCheckbox.Indicator>
      </ArkCheckbox.Control>
      {children !== undefined && <ArkCheckbox.Label className={styles.label}>{children}</ArkCheckbox.Label>}
      <ArkCheckbox.HiddenInput aria-label={aria['aria-label']} />
    </ArkCheckbox.Root>
  );
}
