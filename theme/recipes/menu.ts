import { defineSlotRecipe } from '@pandacss/dev';

/** Ark's menu: a floating list of actions; a destructive one in red. */
export const menuRecipe = defineSlotRecipe({
  className: 'menu',
  slots: ['content', 'item', 'separator'],
  base: {
    content: {
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
    },
    item: {
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
      '&[data-tone=danger]': { color: 'danger' },
      '&[data-tone=danger][data-highlighted]': { bg: 'dangerSubtle', color: 'danger' },
    },
    separator: { h: '1px', bg: 'border.default', my: '1', border: 'none' },
  },
});
