import { type Ref, useMemo, useState } from 'react';
import { Combobox as Parts, createListCollection, Portal } from '@ark-ui/react';
import { cx } from '../../../../styled-system/css';
import { combobox, input } from '../../../../styled-system/recipes';
import { ChevronRightIcon } from '../icons';
import { foldForSearch } from '../../../shared/search-text';
import { withFrenchSpaces } from '../../../shared/typography';
import { type ComboboxProps, comboboxLabel } from './combobox';

interface ArkProps extends ComboboxProps {
  /** The input, for combobox.tsx to hand it the focus its stand-in had. */
  inputRef?: Ref<HTMLInputElement>;
  /** What was typed in combobox.tsx's stand-in before this code arrived: the input starts from it, open if still focused. */
  typed?: { text: string; open: boolean };
}

/** Ark's combobox styled once: a searchable select over a fixed list of options (no free text). */
export function ArkCombobox({
  label,
  options,
  value,
  onChange,
  placeholder,
  emptyText = 'Aucun résultat',
  error,
  className,
  onSearch,
  selectedLabel,
  inputRef,
  typed,
}: ArkProps) {
  const styles = combobox();
  const [query, setQuery] = useState(() => (typed?.open ? typed.text : ''));
  const labelOf = (v: string) => comboboxLabel(options, value, selectedLabel, v);
  const [inputValue, setInputValue] = useState(() => typed?.text ?? labelOf(value));
  const shown = useMemo(
    () => (query && !onSearch ? options.filter((o) => foldForSearch(o.label).includes(foldForSearch(query))) : options),
    [options, query, onSearch],
  );
  const collection = useMemo(() => createListCollection({ items: shown }), [shown]);
  // A value set from outside (e.g. cleared once the form was sent) shows in the input too.
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    setInputValue(labelOf(value));
  }
  // The chosen option's label may arrive after the value (loaded with the record it belongs to).
  const [shownLabel, setShownLabel] = useState(selectedLabel);
  if (selectedLabel !== shownLabel) {
    setShownLabel(selectedLabel);
    if (value && selectedLabel) setInputValue(selectedLabel);
  }
  return (
    <Parts.Root
      className={cx(styles.root, className)}
      collection={collection}
      value={value ? [value] : []}
      inputValue={inputValue}
      onValueChange={(details) => {
        onChange(details.value[0] ?? '');
        setQuery('');
      }}
      onInputValueChange={(details) => {
        setInputValue(details.inputValue);
        if (details.reason === 'input-change') {
          setQuery(details.inputValue);
          onSearch?.(details.inputValue);
        }
      }}
      onOpenChange={(details) => {
        if (details.open) return;
        setQuery('');
        onSearch?.('');
      }}
      openOnClick
      selectionBehavior="replace"
      defaultOpen={typed?.open}
      lazyMount
      unmountOnExit
    >
      <Parts.Label className={styles.label}>{label}</Parts.Label>
      <Parts.Control className={styles.control}>
        <Parts.Input
          ref={inputRef}
          className={input({ trailing: true })}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
        />
        <Parts.Trigger className={styles.trigger} aria-label={`Ouvrir la liste ${label}`}>
          <ChevronRightIcon style={{ transform: 'rotate(90deg)' }} />
        </Parts.Trigger>
      </Parts.Control>
      {error && <p className={styles.errorText}>{withFrenchSpaces(error)}</p>}
      <Portal>
        <Parts.Positioner>
          <Parts.Content className={styles.content}>
            {shown.length === 0 && <p className={styles.empty}>{emptyText}</p>}
            {shown.map((option) => (
              <Parts.Item key={option.value} item={option} className={styles.item}>
                <Parts.ItemText>{option.label}</Parts.ItemText>
              </Parts.Item>
            ))}
          </Parts.Content>
        </Parts.Positioner>
      </Portal>
    </Parts.Root>
  );
}
