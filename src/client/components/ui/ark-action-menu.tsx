import { Menu as ArkMenu, Portal } from '@ark-ui/react';
import { menu } from '../../../../styled-system/recipes';
import { DotsIcon, menuTrigger, type ActionMenuProps } from './action-menu';

/**
 * Ark's menu styled once: a "⋮" button (or the given `trigger`) opening a list of actions (keyboard, typeahead,
 * Escape handled by Ark). Drawn through `ActionMenu` (action-menu.tsx), open at once when its first click loaded it.
 */
export function ArkActionMenu({ label, entries, trigger, defaultOpen }: ActionMenuProps & { defaultOpen?: boolean }) {
  const styles = menu();
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
                  className={styles.item}
                  data-tone={entry.tone}
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
