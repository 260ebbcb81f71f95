import type { ReactNode } from 'react';
import { Menu as ArkMenu, Portal } from '@ark-ui/react';
import { css, cx } from '../../../../styled-system/css';

const styles = {
  trigger: css({
    display: 'grid',
    placeItems: 'center',
    w: '8',
    h: '8',
    borderRadius: 'full',
    color: 'fg.muted',
    cursor: 'pointer',
    _hover: { bg: 'bg.muted', color: 'fg.default' },
    '&[data-state=open]': { bg: 'bg.muted', color: 'fg.default' },
    _focusVisible: { outline: '2px solid token(colors.accent.default)', outlineOffset: '1px' },
  }),
  content: css({
    bg: 'bg.surface',
    color: 'fg.default',
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'lg',
    boxShadow: 'overlay',
    minW: '52',
    p: '1',
    zIndex: 'tooltip',
    _focusVisible: { outline: 'none' },
  }),
  item: css({
    display: 'flex',
    alignItems: 'center',
    gap: '2',
    px: '3',
    py: '2',
    borderRadius: 'md',
    fontSize: 'sm',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    '&[data-highlighted]': { bg: 'accent.subtle', color: 'accent.fg' },
    '&[data-disabled]': { opacity: 0.45, cursor: 'not-allowed', bg: 'transparent', color: 'fg.muted' },
  }),
  danger: css({ color: 'danger', '&[data-highlighted]': { bg: 'dangerSubtle', color: 'danger' } }),
  separator: css({ h: '1px', bg: 'border.default', my: '1', border: 'none' }),
};

export type MenuEntry =
  | { value: string; label: ReactNode; onSelect: () => void; disabled?: boolean; tone?: 'danger'; hint?: string }
  | { separator: true; value: string };

const DotsIcon = () => (
  <svg width={18} height={18} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
    <circle cx="12" cy="5" r="1.8" />
    <circle cx="12" cy="12" r="1.8" />
    <circle cx="12" cy="19" r="1.8" />
  </svg>
);

/**
 * Ark's menu styled once: a "⋮" button (or the given `trigger`) opening a list of actions (keyboard, typeahead,
 * Escape handled by Ark).
 */
export function ActionMenu({ label, entries, trigger }: { label: string; entries: MenuEntry[]; trigger?: ReactNode }) {
  return (
    <ArkMenu.Root positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit>
      {trigger ? (
        <ArkMenu.Trigger asChild aria-label={label}>
          {trigger}
        </ArkMenu.Trigger>
      ) : (
        <ArkMenu.Trigger className={styles.trigger} aria-label={label} title={label}>
          <DotsIcon />
        </ArkMenu.Trigger>
      )}
      <Portal>
        <ArkMenu.Positioner>
          <ArkMenu.Content className={styles.content}>
            {entries.map((entry) =>
              'separator' in entry ? (
                <ArkMenu.Separator key={entry.value} className={styles.separator} />
              ) : (
                <ArkMenu.Item
                  key={entry.value}
                  value={entry.value}
                  disabled={entry.disabled}
                  onSelect={entry.onSelect}
                  title={entry.hint}
                  className={cx(styles.item, entry.tone === 'danger' && styles.danger)}
                >
                  {entry.label}
                </ArkMenu.Item>
              ),
            )}
          </ArkMenu.Content>
        </ArkMenu.Positioner>
      </Portal>
    </ArkMenu.Root>
  );
}
