import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { tabs } from '../../../../styled-system/recipes';
import { arkPart, type PointerHold, useArkPartAtRest } from '../../lib/lazy-page';

export interface TabItem<V extends string> {
  value: V;
  label: string;
  content: ReactNode;
  /** Marks the tab (a red dot, and said to screen readers) when something in it needs fixing. */
  invalid?: boolean;
  /** Hover or focus of its tab: a panel in its own chunk starts downloading before the click. */
  onIntent?: () => void;
}

interface TabIds {
  trigger: (value: string) => string;
  content: (value: string) => string;
}

/** What the tab list draws, Ark's (ark-tabs.tsx) or its stand-in; the ids tie each trigger to the wrapper's panel. */
export interface TabListProps {
  label: string;
  items: TabItem<string>[];
  value: string;
  onChange: (value: string) => void;
  size: 'sm' | 'md';
  ids: TabIds;
}

// Ark's tabs machine and the helpers it brings are some 12 KB gzip in seven files, on the designer's first load. It
// downloads when the browser is idle, or on hover or focus of a tab (ark-tabs.tsx); until then a tab list drawn alike
// does the same work. The panel is drawn here, outside Ark's part, so its fields keep their state and focus at the swap.
const ark = arkPart(
  () => import('./ark-tabs'),
  (m) => m.ArkTabList,
);

/**
 * Tabs (arrow keys between triggers, aria wiring) styled once. Only the selected panel is mounted: each panel reads the
 * same store, so nothing is lost on switching.
 */
export function Tabs<V extends string>({
  label,
  items,
  value,
  onChange,
  size = 'md',
}: {
  label: string;
  items: TabItem<V>[];
  value: V;
  onChange: (value: V) => void;
  size?: 'sm' | 'md';
}) {
  const styles = tabs({ size });
  const [Real, hold] = useArkPartAtRest(ark);
  const id = useId();
  const ids = useRef<TabIds>({ trigger: (v) => `${id}-tab-${v}`, content: (v) => `${id}-panel-${v}` }).current;
  // The stand-in's trigger under the focus: the real one takes it at the swap.
  const focused = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (Real && focused.current !== undefined) document.getElementById(ids.trigger(focused.current))?.focus({ preventScroll: true });
  }, [Real, ids]);
  const selected = items.find((item) => item.value === value);
  const list = { label, items, value, onChange: (chosen: string) => onChange(chosen as V), size, ids };
  return (
    <div>
      {Real ? <Real {...list} /> : <StandInList {...list} focused={focused} hold={hold} />}
      {selected && (
        <div
          data-scope="tabs"
          data-part="content"
          data-orientation="horizontal"
          data-selected=""
          role="tabpanel"
          id={ids.content(value)}
          aria-labelledby={ids.trigger(value)}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the tab panel pattern, as Ark draws it: Tab from the list reaches the panel
          tabIndex={0}
          className={styles.content}
        >
          {selected.content}
        </div>
      )}
    </div>
  );
}

const STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * Ark's tab list as it draws (same parts, classes, data attributes, roles and ids), without its machine: a click or the
 * arrow keys choose a tab as Ark's would, and the page keeps its layout when the real list replaces it.
 */
function StandInList({
  label,
  items,
  value,
  onChange,
  size,
  ids,
  focused,
  hold,
}: TabListProps & { focused: { current: string | undefined }; hold: PointerHold }) {
  const styles = tabs({ size });
  const preload = () => void ark.preload();
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = STEPS[event.key];
    const next = step ? items[step(index, items.length)] : undefined;
    if (!next) return;
    event.preventDefault();
    onChange(next.value);
    document.getElementById(ids.trigger(next.value))?.focus();
  };
  return (
    <div data-scope="tabs" data-part="root" data-orientation="horizontal" {...hold}>
      <div
        data-scope="tabs"
        data-part="list"
        data-orientation="horizontal"
        role="tablist"
        aria-orientation="horizontal"
        aria-label={label}
        className={styles.list}
      >
        {items.map((item, index) => {
          const chosen = item.value === value;
          return (
            <button
              key={item.value}
              type="button"
              data-scope="tabs"
              data-part="trigger"
              data-orientation="horizontal"
              data-value={item.value}
              data-selected={chosen ? '' : undefined}
              data-invalid={item.invalid || undefined}
              role="tab"
              id={ids.trigger(item.value)}
              aria-selected={chosen}
              aria-controls={chosen ? ids.content(item.value) : undefined}
              tabIndex={chosen ? 0 : -1}
              className={styles.trigger}
              onClick={() => onChange(item.value)}
              onKeyDown={(event) => onKeyDown(event, index)}
              onPointerEnter={() => {
                item.onIntent?.();
                preload();
              }}
              onFocus={() => {
                focused.current = item.value;
                item.onIntent?.();
                preload();
              }}
              onBlur={(event) => {
                // Not when the swap itself removes it: the focus is then handed to the real trigger.
                if (event.currentTarget.isConnected) focused.current = undefined;
              }}
            >
              {item.label}
              {item.invalid && <span className={styles.invalidHint}> (à corriger)</span>}
            </button>
          );
        })}
      </div>
    </div>
  );
}
