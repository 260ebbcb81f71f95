import type { ReactNode } from 'react';
import { Tabs as ArkTabs } from '@ark-ui/react';
import { tabs } from '../../../../styled-system/recipes';

export interface TabItem<V extends string> {
  value: V;
  label: string;
  content: ReactNode;
  /** Marks the tab (a red dot, and said to screen readers) when something in it needs fixing. */
  invalid?: boolean;
  /** Hover or focus of its tab: a panel in its own chunk starts downloading before the click. */
  onIntent?: () => void;
}

/**
 * Ark's tabs (arrow keys between triggers, aria wiring) styled once. Only the selected panel is mounted: each panel
 * reads the same store, so nothing is lost on switching.
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
  return (
    <ArkTabs.Root value={value} onValueChange={(d) => onChange(d.value as V)} lazyMount unmountOnExit>
      <ArkTabs.List aria-label={label} className={styles.list}>
        {items.map((item) => (
          <ArkTabs.Trigger
            key={item.value}
            value={item.value}
            className={styles.trigger}
            data-invalid={item.invalid || undefined}
            onPointerEnter={item.onIntent}
            onFocus={item.onIntent}
          >
            {item.label}
            {item.invalid && <span className={styles.invalidHint}> (à corriger)</span>}
          </ArkTabs.Trigger>
        ))}
      </ArkTabs.List>
      {items.map((item) => (
        <ArkTabs.Content key={item.value} value={item.value} className={styles.content}>
          {item.content}
        </ArkTabs.Content>
      ))}
    </ArkTabs.Root>
  );
}
