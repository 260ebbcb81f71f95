import { Tabs as Parts } from '@ark-ui/react/tabs';
import { tabs } from '../../../../styled-system/recipes';
import type { TabListProps } from './tabs';

/**
 * Ark's tab list styled once: arrow keys, Home and End between the triggers, and the aria wiring. The panel is the
 * wrapper's (tabs.tsx), with the ids given here, so it stays mounted when this code arrives.
 */
export function ArkTabList({ label, items, value, onChange, size, ids }: TabListProps) {
  const styles = tabs({ size });
  return (
    <Parts.Root value={value} onValueChange={(d) => onChange(d.value)} ids={ids}>
      <Parts.List aria-label={label} className={styles.list}>
        {items.map((item) => (
          <Parts.Trigger
            key={item.value}
            value={item.value}
            className={styles.trigger}
            data-invalid={item.invalid || undefined}
            onPointerEnter={item.onIntent}
            onFocus={item.onIntent}
          >
            {item.label}
            {item.invalid && <span className={styles.invalidHint}> (à corriger)</span>}
          </Parts.Trigger>
        ))}
      </Parts.List>
    </Parts.Root>
  );
}
