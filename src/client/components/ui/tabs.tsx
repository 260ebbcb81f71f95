import type { ReactNode } from 'react';
import { Tabs as ArkTabs } from '@ark-ui/react';
import { css, cx } from '../../../../styled-system/css';

const styles = {
  list: css({
    display: 'flex',
    gap: '1',
    flexWrap: 'wrap',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    pb: '0',
  }),
  trigger: css({
    position: 'relative',
    px: '3',
    py: '2',
    fontSize: 'sm',
    fontWeight: '600',
    color: 'fg.muted',
    cursor: 'pointer',
    borderBottomWidth: '2px',
    borderColor: 'transparent',
    mb: '-1px',
    whiteSpace: 'nowrap',
    _hover: { color: 'fg.default' },
    '&[data-selected]': { color: 'accent.fg', borderColor: 'accent.default' },
  }),
  small: css({ px: '2.5', py: '1.5', fontSize: 'xs' }),
  content: css({ pt: '4', _focusVisible: { outline: 'none' } }),
  invalid: css({
    '&::after': {
      content: '""',
      position: 'absolute',
      top: '1.5',
      right: '0.5',
      w: '1.5',
      h: '1.5',
      borderRadius: 'full',
      bg: 'danger',
    },
  }),
};

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
  return (
    <ArkTabs.Root value={value} onValueChange={(d) => onChange(d.value as V)} lazyMount unmountOnExit>
      <ArkTabs.List aria-label={label} className={styles.list}>
        {items.map((item) => (
          <ArkTabs.Trigger
            key={item.value}
            value={item.value}
            className={cx(styles.trigger, size === 'sm' && styles.small, item.invalid && styles.invalid)}
            onPointerEnter={item.onIntent}
            onFocus={item.onIntent}
          >
            {item.label}
            {item.invalid && <span className={css({ srOnly: true })}> (à corriger)</span>}
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
