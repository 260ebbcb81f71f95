import { useMemo, useState } from 'react';
import { Combobox as ArkCombobox, createListCollection, Portal } from '@ark-ui/react';
import { cx } from '../../../../styled-system/css';
import { combobox, input } from '../../../../styled-system/recipes';
import { ChevronRightIcon } from '../icons';
import { foldForSearch } from '../../../shared/search-text';
import { withFrenchSpaces } from '../../../shared/typography';

export interface ComboboxOption {
  value: string;
  label: string;
}

interface ComboboxProps {
  label: string;
  options: ComboboxOption[];
  /** The chosen value, '' for none. */
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  emptyText?: string;
  error?: string | null;
  className?: string;
  /** Searching on the server: the typed text is handed over and `options` are shown as given (no local filter). */
  onSearch?: (text: string) => void;
  /** The chosen option's label, when `options` (a server's search results) may not hold it. */
  selectedLabel?: string;
}

/** Ark's combobox styled once: a searchable select over a fixed list of options (no free text). */
export function Combobox({
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
}: ComboboxProps) {
  const styles = combobox();
  const [query, setQuery] = useState('');
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? (v === value ? selectedLabel : undefined) ?? '';
  const [inputValue, setInputValue] = useState(() => labelOf(value));
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
    <ArkCombobox.Root
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
      lazyMount
      unmountOnExit
    >
      <ArkCombobox.Label className={styles.label}>{label}</ArkCombobox.Label>
      <ArkCombobox.Control className={styles.control}>
        <ArkCombobox.Input className={input({ trailing: true })} placeholder={placeholder} aria-invalid={error ? true : undefined} />
        <ArkCombobox.Trigger className={styles.trigger} aria-label={`Ouvrir la liste ${label}`}>
          <ChevronRightIcon style={{ transform: 'rotate(90deg)' }} />
        </ArkCombobox.Trigger>
      </ArkCombobox.Control>
      {error && <p className={styles.errorText}>{withFrenchSpaces(error)}</p>}
      <Portal>
        <ArkCombobox.Positioner>
          <ArkCombobox.Content className={styles.content}>
            {shown.length === 0 && <p className={styles.empty}>{emptyText}</p>}
            {shown.map((option) => (
              <ArkCombobox.Item key={option.value} item={option} className={styles.item}>
                <ArkCombobox.ItemText>{option.label}</ArkCombobox.ItemText>
              </ArkCombobox.Item>
            ))}
          </ArkCombobox.Content>
        </ArkCombobox.Positioner>
      </Portal>
    </ArkCombobox.Root>
  );
}
