import { Menu as ArkMenu, Portal } from '@ark-ui/react';
import { css, cx } from '../../../../styled-system/css';
import { DotsIcon, menuTrigger, type ActionMenuProps } from './action-menu';

const styles = {
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

/**
 * Ark's menu styled once: a "⋮" button (or the given `trigger`) opening a list of actions (keyboard, typeahead,
 * Escape handled by Ark). Drawn through `ActionMenu` (action-menu.tsx), open at once when its first click loaded it.
 */
export function ArkActionMenu({ label, entries, trigger, defaultOpen }: ActionMenuProps & { defaultOpen?: boolean }) {
  return (
    <ArkMenu.Root positioning={{ placement: 'bottom-end' }} defaultOpen={defaultOpen} lazyMount unmountOnExit>
      {trigger ? (
        <ArkMenu.Trigger asChild aria-label={label}>
          {trigger}
        </ArkMenu.Trigger>
      ) : (
        <ArkMenu.Trigger className={menuTrigger} aria-label={label} title={label}>
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
