import { createListCollection, Portal, Select as ArkSelect } from '@ark-ui/react';
import { useFieldContext } from '@ark-ui/react/field';
import { type Ref, useMemo } from 'react';
import { cx } from '../../../../styled-system/css';
import { select as selectRecipe } from '../../../../styled-system/recipes';
import { CheckIcon, ChevronDownIcon } from '../icons';
import type { FieldSize } from './field';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

interface Props {
  value: string;
  onChange: (value: string) => void;
  options: readonly SelectOption[];
  /** Shown while nothing is chosen (value ''). */
  placeholder?: string;
  size?: FieldSize;
  disabled?: boolean;
  name?: string;
  className?: string;
  /** Only for a select with no Field around it (a table cell): the Field's label names it otherwise. */
  'aria-label'?: string;
  /** The button, for lazy-select.tsx to hand it the focus and the click its stand-in received. */
  triggerRef?: Ref<HTMLButtonElement>;
}

/**
 * One choice from a short list, on Ark's Select: a button opening a listbox (arrow keys, type-ahead, Enter, Escape),
 * styled alike in light and dark and on every platform. Inside a Field it takes the field's label, description and
 * invalid state; a native select stays underneath for forms and autofill.
 */
export function Select({ value, onChange, options, placeholder, size, disabled, name, className, triggerRef, ...aria }: Props) {
  const styles = selectRecipe({ size });
  // Ark's Select takes the Field's label and invalid state but not its description: the helper or error text is
  // pointed at here, so a screen reader reads it with the button, as it does for the other controls.
  const field = useFieldContext();
  const collection = useMemo(
    () =>
      createListCollection({
        items: [...options],
        itemToValue: (o) => o.value,
        itemToString: (o) => o.label,
        isItemDisabled: (o) => Boolean(o.disabled),
      }),
    [options],
  );
  return (
    <ArkSelect.Root
      className={cx(styles.root, className)}
      collection={collection}
      value={value === '' && !options.some((o) => o.value === '') ? [] : [value]}
      onValueChange={(details) => {
        const picked = details.value[0];
        if (picked !== undefined) onChange(picked);
      }}
      disabled={disabled}
      name={name}
      positioning={{ sameWidth: false, fitViewport: true }}
      lazyMount
      unmountOnExit
    >
      <ArkSelect.Control className={styles.control}>
        <ArkSelect.Trigger
          ref={triggerRef}
          className={styles.trigger}
          aria-label={aria['aria-label']}
          aria-describedby={field?.ariaDescribedby}
        >
          <ArkSelect.ValueText className={styles.valueText} placeholder={placeholder ?? 'Choisir…'} />
          <ArkSelect.Indicator className={styles.indicator}>
            <ChevronDownIcon size={16} />
          </ArkSelect.Indicator>
        </ArkSelect.Trigger>
      </ArkSelect.Control>
      <Portal>
        <ArkSelect.Positioner className={styles.positioner}>
          <ArkSelect.Content className={styles.content}>
            {collection.items.map((option) => (
              <ArkSelect.Item key={option.value} item={option} className={styles.item}>
                <ArkSelect.ItemText className={styles.itemText}>{option.label}</ArkSelect.ItemText>
                <ArkSelect.ItemIndicator className={styles.itemIndicator}>
                  <CheckIcon />
                </ArkSelect.ItemIndicator>
              </ArkSelect.Item>
            ))}
          </ArkSelect.Content>
        </ArkSelect.Positioner>
      </Portal>
      <ArkSelect.HiddenSelect />
    </ArkSelect.Root>
  );
}
