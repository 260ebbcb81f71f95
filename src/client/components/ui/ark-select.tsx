import { createListCollection, Portal, Select as SelectParts } from '@ark-ui/react';
import { useFieldContext } from '@ark-ui/react/field';
import { type Ref, useId, useMemo, useState } from 'react';
import { matchesSearch } from '../../../shared/search-text';
import { cx } from '../../../../styled-system/css';
import { select as selectRecipe } from '../../../../styled-system/recipes';
import { CheckIcon, ChevronDownIcon } from '../icons';
import type { FieldSize } from './field';
import { NO_RESULT, SEARCH_FROM, SelectSearch } from './ark-select-search';

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
  /** A search field on top of the open list; by default only for long lists (more than 8 options). */
  searchable?: boolean;
  /** The button, for select.tsx to hand it the focus and the click its stand-in received. */
  triggerRef?: Ref<HTMLButtonElement>;
}

/**
 * One choice from a list, on Ark's Select: a button opening a listbox (arrow keys, type-ahead, Enter, Escape),
 * styled alike in light and dark and on every platform. Inside a Field it takes the field's label, description and
 * invalid state; a native select stays underneath for forms and autofill. A long list opens with a search field on
 * top (focus goes there; typing filters, ignoring case and accents; the arrows and Enter still pick).
 */
export function ArkSelect({
  value,
  onChange,
  options,
  placeholder,
  size,
  disabled,
  name,
  className,
  searchable,
  triggerRef,
  ...aria
}: Props) {
  const styles = selectRecipe({ size });
  const withSearch = searchable ?? options.length >= SEARCH_FROM;
  const [query, setQuery] = useState('');
  const listId = useId();
  const shown = useMemo(
    () => (withSearch && query.trim() ? options.filter((o) => matchesSearch(o.label, query)) : options),
    [options, query, withSearch],
  );
  // Ark's Select takes the Field's label and invalid state but not its description: the helper or error text is
  // pointed at here, so a screen reader reads it with the button, as it does for the other controls.
  const field = useFieldContext();
  const collection = useMemo(
    () =>
      createListCollection({
        // Only what the search leaves: the arrows then move through the visible options alone. Ark keeps the
        // chosen option's label on the button while it is filtered out.
        items: [...shown],
        itemToValue: (o) => o.value,
        itemToString: (o) => o.label,
        isItemDisabled: (o) => Boolean(o.disabled),
      }),
    [shown],
  );
  const items = collection.items.map((option) => (
    <SelectParts.Item key={option.value} item={option} className={styles.item}>
      <SelectParts.ItemText className={styles.itemText}>{option.label}</SelectParts.ItemText>
      <SelectParts.ItemIndicator className={styles.itemIndicator}>
        <CheckIcon />
      </SelectParts.ItemIndicator>
    </SelectParts.Item>
  ));
  return (
    <SelectParts.Root
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
      // With a search field the content is a small dialog holding the field and the listbox, not the listbox itself.
      composite={!withSearch}
      onOpenChange={(details) => {
        if (!details.open) setQuery('');
      }}
      lazyMount
      unmountOnExit
    >
      <SelectParts.Control className={styles.control}>
        <SelectParts.Trigger
          ref={triggerRef}
          className={styles.trigger}
          aria-label={aria['aria-label']}
          aria-describedby={field?.ariaDescribedby}
        >
          <SelectParts.ValueText className={styles.valueText} placeholder={placeholder ?? 'Choisir…'} />
          <SelectParts.Indicator className={styles.indicator}>
            <ChevronDownIcon size={16} />
          </SelectParts.Indicator>
        </SelectParts.Trigger>
      </SelectParts.Control>
      <Portal>
        <SelectParts.Positioner className={styles.positioner}>
          <SelectParts.Content className={styles.content} data-searchable={withSearch || undefined} aria-label={aria['aria-label']}>
            {withSearch ? (
              <>
                <SelectSearch query={query} onQueryChange={setQuery} shown={shown} listId={listId} classNames={styles} />
                {/* Focus stays in the search field, which points at the highlighted option: the list needs no tab stop. */}
                <SelectParts.List id={listId} tabIndex={-1} className={styles.list}>
                  {items}
                </SelectParts.List>
                {/* Always there, so that screen readers hear « Aucun résultat » when it appears. */}
                <p className={styles.empty} role="status">
                  {shown.length === 0 ? NO_RESULT : ''}
                </p>
              </>
            ) : (
              items
            )}
          </SelectParts.Content>
        </SelectParts.Positioner>
      </Portal>
      <SelectParts.HiddenSelect />
    </SelectParts.Root>
  );
}
