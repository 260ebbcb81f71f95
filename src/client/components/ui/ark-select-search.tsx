import { useSelectContext } from '@ark-ui/react/select';
import type { KeyboardEvent } from 'react';
import { SearchIcon } from '../icons';
import type { SelectOption } from './ark-select';

/** Past this many options a list is long enough to want a search field (countries, currencies, customers…). */
export const SEARCH_FROM = 9;

export const SEARCH_LABEL = 'Rechercher dans la liste';
export const NO_RESULT = 'Aucun résultat';

interface Props {
  query: string;
  onQueryChange: (query: string) => void;
  /** The options the query leaves, in order: Enter picks the first when none is highlighted yet. */
  shown: readonly SelectOption[];
  /** The id of the listbox the field filters (Ark's List part carries none of its own). */
  listId: string;
  classNames: { search: string; searchIcon: string; searchInput: string };
}

/**
 * The search field on top of a long Select's open list. Focus stays here while the arrows move the highlight
 * (Ark's Select, non-composite, handles ArrowUp/ArrowDown/Enter on its content, where these keys bubble to);
 * the field tells assistive technology which option is highlighted, as a combobox does.
 */
export function SelectSearch({ query, onQueryChange, shown, listId, classNames }: Props) {
  const select = useSelectContext();
  const highlighted = select.highlightedItem as SelectOption | null;
  const activeId =
    highlighted && shown.some((o) => o.value === highlighted.value) ? select.getItemProps({ item: highlighted }).id : undefined;

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Space, Home and End edit the text here; on the content they would pick or jump ('Royaume-Uni' has no space,
    // 'Côte d’Ivoire' has one).
    if (event.key === ' ' || event.key === 'Home' || event.key === 'End') {
      event.stopPropagation();
      return;
    }
    if (event.key === 'Enter' && activeId === undefined) {
      // Nothing highlighted: Enter picks the only sensible one, the first match of a query, and never closes empty-handed.
      event.preventDefault();
      event.stopPropagation();
      const first = shown.find((o) => !o.disabled);
      if (query.trim() && first) {
        select.selectValue(first.value);
        select.setOpen(false);
      }
      return;
    }
    if (event.key === 'Tab') {
      // Tab leaves the select as it would from its button: the list lives in a portal at the end of the page, so
      // focus goes back to the button first and the browser then moves it on (or back, with Shift) from there.
      // The list closes as focus leaves it.
      event.stopPropagation();
      const trigger = document.getElementById(select.getTriggerProps().id ?? '');
      trigger?.focus({ preventScroll: true });
    }
  }

  return (
    <div className={classNames.search}>
      <SearchIcon size={16} className={classNames.searchIcon} />
      <input
        type="text"
        role="combobox"
        aria-label={SEARCH_LABEL}
        aria-expanded
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        autoComplete="off"
        spellCheck={false}
        placeholder="Rechercher…"
        className={classNames.searchInput}
        value={query}
        onChange={(event) => {
          onQueryChange(event.target.value);
          // The old highlight may be filtered out: ArrowDown starts again from the first match.
          select.clearHighlightValue();
        }}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
