import { useFieldContext } from '@ark-ui/react/field';
import { type ComponentProps, type KeyboardEvent, useEffect, useRef } from 'react';
import { cx } from '../../../../styled-system/css';
import { select as selectRecipe } from '../../../../styled-system/recipes';
import { ChunkErrorNotice, usePartFailure } from '../page-loading';
import { arkPart, useArkPart } from '../../lib/lazy-page';
import { ChevronDownIcon } from '../icons';
import type { ArkSelect } from './ark-select';
import { VISUALLY_HIDDEN } from './field';

export type { SelectOption } from './ark-select';
type Props = ComponentProps<typeof ArkSelect>;

// Ark's select machine pulls the positioning engine (floating-ui) and the collection code, a good 20 KB gzip
// on every page with a filter or a form. No list is open when a page first draws, so Ark's Select (ark-select.tsx)
// downloads when the browser is idle, or on hover or focus of its button; until then a button drawn alike stands in.
const ark = arkPart(
  () => import('./ark-select'),
  (m) => m.ArkSelect,
);

/** What the user did to the stand-in before the list's code arrived: done again on the real button once it is there. */
type PendingAction = 'focus' | 'click' | 'ArrowDown' | 'ArrowUp' | 'Enter' | ' ';
const REPLAYED_KEYS = new Set<string>(['ArrowDown', 'ArrowUp', 'Enter', ' ']);

/** One choice from a short list (ark-select.tsx): Ark's Select once downloaded, the same-looking button before. */
export function Select(props: Props) {
  const Real = useArkPart(ark);
  const pending = useRef<PendingAction | undefined>(undefined);
  const trigger = useRef<HTMLButtonElement>(null);
  // The stand-in unmounted under the user's focus or click: the real button takes the focus and gets the same click or
  // key, so ArrowDown still opens the list and moves in it, and a click still opens it.
  useEffect(() => {
    const action = pending.current;
    const button = trigger.current;
    if (!Real || !action || !button) return;
    pending.current = undefined;
    button.focus({ preventScroll: true });
    if (action === 'click') button.click();
    else if (action !== 'focus')
      button.dispatchEvent(new window.KeyboardEvent('keydown', { key: action, bubbles: true, cancelable: true }));
  }, [Real]);
  if (Real) return <Real {...props} triggerRef={trigger} />;
  // A press counts as the click it starts: should the swap land between the press and the release, the release lands
  // on the real button and no click follows, so the press itself is replayed as one. The focus that comes with the
  // press does not lower it back to a plain focus.
  const record = (action: PendingAction | undefined) => {
    if (action === 'focus' && pending.current === 'click') return;
    pending.current = action;
  };
  return <StandIn {...props} onAction={record} />;
}

/**
 * Ark's closed Select as it draws (same parts, classes, data attributes and accessible name), without its machine: the
 * page keeps its layout and looks when the real one replaces it. It only records what the user did, to be replayed.
 * When the code cannot come (offline, or a deploy since the tab opened removed the old chunk) it says so, with a
 * reload, rather than a button that does nothing; the user's next action tries the download again.
 */
function StandIn({
  value,
  options,
  placeholder,
  size,
  disabled,
  name,
  className,
  onAction,
  ...rest
}: Props & { onAction: (action: PendingAction | undefined) => void }) {
  const styles = selectRecipe({ size });
  const field = useFieldContext();
  const isDisabled = disabled ?? field?.disabled ?? false;
  const invalid = field?.invalid ? '' : undefined;
  const chosen = options.find((o) => o.value === value);
  const button = useRef<HTMLButtonElement>(null);
  const { failed, download, holder } = usePartFailure();
  const preload = () => void ark.preload();
  // Once the code is there the Select above swaps in the real one and replays the action; if it cannot come, the
  // notice says so and nothing is replayed if it comes later.
  const act = (action: PendingAction) => {
    onAction(action);
    download(ark, { failed: () => onAction(undefined) });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!REPLAYED_KEYS.has(event.key)) return;
    event.preventDefault();
    act(event.key as PendingAction);
  };
  return (
    <div data-scope="select" data-part="root" className={cx(styles.root, className)} data-invalid={invalid} {...holder}>
      <div data-scope="select" data-part="control" className={styles.control} data-state="closed" data-invalid={invalid}>
        <button
          ref={button}
          type="button"
          role="combobox"
          aria-expanded={false}
          aria-haspopup="listbox"
          aria-invalid={field?.invalid}
          aria-required={field?.required}
          aria-labelledby={field?.ids.label}
          aria-label={rest['aria-label']}
          aria-describedby={field?.ariaDescribedby}
          data-scope="select"
          data-part="trigger"
          data-state="closed"
          data-disabled={isDisabled ? '' : undefined}
          data-invalid={invalid}
          data-placeholder-shown={chosen ? undefined : ''}
          className={styles.trigger}
          disabled={isDisabled}
          onPointerEnter={preload}
          onPointerDown={(event) => event.button === 0 && act('click')}
          onFocus={() => act('focus')}
          // Not when the swap itself removes it: the focus is then handed to the real button.
          onBlur={(event) => event.currentTarget.isConnected && onAction(undefined)}
          onClick={(event) => {
            // Safari does not focus a clicked button: focused, it loses the notice as the other browsers do.
            event.currentTarget.focus();
            act('click');
          }}
          onKeyDown={onKeyDown}
        >
          <span data-scope="select" data-part="value-text" className={styles.valueText}>
            {chosen ? chosen.label : (placeholder ?? 'Choisir…')}
          </span>
          <div data-scope="select" data-part="indicator" data-state="closed" aria-hidden="true" className={styles.indicator}>
            <ChevronDownIcon size={16} />
          </div>
        </button>
      </div>
      {/* For forms and the Field's label (which points at it), as Ark's hidden select. */}
      <select
        id={field?.ids.control}
        name={name}
        disabled={isDisabled}
        aria-hidden="true"
        aria-describedby={field?.ariaDescribedby}
        tabIndex={-1}
        value={chosen ? chosen.value : ''}
        onChange={() => undefined}
        onFocus={() => button.current?.focus({ preventScroll: true })}
        style={VISUALLY_HIDDEN}
      >
        {!chosen && <option value="" />}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
      {failed && <ChunkErrorNotice part />}
    </div>
  );
}
