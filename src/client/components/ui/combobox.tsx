import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { cx } from '../../../../styled-system/css';
import { combobox, input } from '../../../../styled-system/recipes';
import { withFrenchSpaces } from '../../../shared/typography';
import { arkPart, useArkPart } from '../../lib/lazy-page';
import { ChunkErrorNotice, usePartFailure } from '../page-loading';
import { ChevronRightIcon } from '../icons';
import { type TextHandover, useHandOver, useTakeOver } from '../../lib/text-handover';

export interface ComboboxOption {
  value: string;
  label: string;
}

export interface ComboboxProps {
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

/** The label the input shows for a chosen value: its option's, or the one given beside a server's search results. */
export function comboboxLabel(options: readonly ComboboxOption[], value: string, selectedLabel: string | undefined, of = value): string {
  return options.find((o) => o.value === of)?.label ?? (of === value ? selectedLabel : undefined) ?? '';
}

// Ark's combobox machine, with its positioning engine and dismissable layer, is some 34 KB gzip: the documents list
// and the expenses draw one in their filter panel, open on a wide screen. It downloads when the browser is idle, or on
// hover, focus or typing (ark-combobox.tsx); until then an input drawn alike stands in and keeps what is typed.
const ark = arkPart(
  () => import('./ark-combobox'),
  (m) => m.ArkCombobox,
);

/** Where the user left the stand-in: the real input takes the focus, the caret and the list's open state from it. */
interface StandInState extends TextHandover {
  /** The list would be open now: a click on the input or its button, an arrow key, or typing. */
  open: boolean;
}

/** A searchable choice (ark-combobox.tsx): Ark's combobox once downloaded, the same-looking input before. */
export function Combobox(props: ComboboxProps) {
  const Real = useArkPart(ark);
  // What the user typed in the stand-in; the real input starts from it.
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const state = useRef<StandInState>({ focused: false, open: false });
  const field = useRef<HTMLInputElement>(null);
  useTakeOver(Real, state, field);
  if (Real) {
    const { focused, open } = state.current;
    const start =
      typed === undefined && !open
        ? undefined
        : { text: typed ?? comboboxLabel(props.options, props.value, props.selectedLabel), open: focused && open };
    return <Real {...props} inputRef={field} typed={start} />;
  }
  return <StandIn {...props} typed={typed} onType={setTyped} state={state} />;
}

const OPENING_KEYS = new Set(['ArrowDown', 'ArrowUp']);

/**
 * Ark's closed combobox as it draws (same parts, classes, data attributes and accessible names), without its machine:
 * the page keeps its layout when the real one replaces it. Typing goes on here (and the server search with it); the
 * text, the focus and the caret pass to the real input. When the code cannot come it says so, with a reload.
 */
function StandIn({
  label,
  options,
  value,
  placeholder,
  error,
  className,
  onSearch,
  selectedLabel,
  typed,
  onType,
  state,
}: ComboboxProps & { typed: string | undefined; onType: (text: string | undefined) => void; state: { current: StandInState } }) {
  const styles = combobox();
  const id = useId();
  const { failed, download, holder } = usePartFailure();
  const preload = () => void ark.preload();
  const use = (open?: boolean) => {
    state.current.focused = true;
    if (open) state.current.open = true;
    // If the code cannot come, the notice says so and nothing opens should it come later.
    download(ark, { failed: () => Object.assign(state.current, { open: false }) });
  };
  const element = useHandOver(state);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!OPENING_KEYS.has(event.key)) return;
    event.preventDefault();
    use(true);
  };
  const invalid = error ? '' : undefined;
  return (
    <div data-scope="combobox" data-part="root" className={cx(styles.root, className)} data-invalid={invalid} {...holder}>
      <label data-scope="combobox" data-part="label" htmlFor={id} className={styles.label} data-invalid={invalid}>
        {label}
      </label>
      <div data-scope="combobox" data-part="control" data-state="closed" className={styles.control} data-invalid={invalid}>
        <input
          ref={element}
          id={id}
          data-scope="combobox"
          data-part="input"
          data-state="closed"
          data-invalid={invalid}
          className={input({ trailing: true })}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={false}
          aria-invalid={error ? true : undefined}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder={placeholder}
          value={typed ?? comboboxLabel(options, value, selectedLabel)}
          onPointerEnter={preload}
          onFocus={() => use()}
          onPointerDown={(event) => event.button === 0 && use(true)}
          onKeyDown={onKeyDown}
          onChange={(event) => {
            onType(event.target.value);
            // Typing opens the real list: the server search starts now, so the results may be there before it.
            onSearch?.(event.target.value);
            use(true);
          }}
          onBlur={(event) => {
            // Not when the swap itself removes it: the focus is then handed to the real input.
            if (!event.currentTarget.isConnected) return;
            state.current = { focused: false, open: false };
            // As Ark's combobox on leaving: a text that names no option goes back to the chosen one's label.
            if (typed === undefined) return;
            onType(undefined);
            onSearch?.('');
          }}
        />
        <button
          type="button"
          tabIndex={-1}
          data-scope="combobox"
          data-part="trigger"
          data-state="closed"
          data-invalid={invalid}
          aria-haspopup="listbox"
          aria-expanded={false}
          aria-label={`Ouvrir la liste ${label}`}
          className={styles.trigger}
          onPointerEnter={preload}
          onClick={() => use(true)}
        >
          <ChevronRightIcon style={{ transform: 'rotate(90deg)' }} />
        </button>
      </div>
      {error && <p className={styles.errorText}>{withFrenchSpaces(error)}</p>}
      {failed && <ChunkErrorNotice part />}
    </div>
  );
}
