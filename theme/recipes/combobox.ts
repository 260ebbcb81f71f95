import { defineSlotRecipe } from '@pandacss/dev';

/** Ark's combobox: the kit's text box with a chevron inside it, and a list of matching options below. */
export const comboboxRecipe = defineSlotRecipe({
  className: 'combobox',
  slots: ['root', 'label', 'control', 'trigger', 'content', 'item', 'empty', 'errorText'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5' },
    label: { fontSize: 'sm', fontWeight: '600', color: 'fg.default' },
    control: { position: 'relative' },
    trigger: {
      position: 'absolute',
      right: '1',
      top: '1',
      h: '8',
      w: '8',
      display: 'grid',
      placeItems: 'center',
      color: 'fg.muted',
      cursor: 'pointer',
      borderRadius: 'md',
      _hover: { bg: 'bg.subtle' },
    },
    content: {
      bg: 'bg.surface',
      borderWidth: '1px',
      borderColor: 'border.default',
      borderRadius: 'lg',
      boxShadow: 'overlay',
      maxH: '64',
      overflowY: 'auto',
      p: '1',
      zIndex: 'tooltip',
      _focusVisible: { outline: 'none' },
    },
    item: {
      px: '3',
      py: '2',
      borderRadius: 'md',
      fontSize: 'sm',
      cursor: 'pointer',
      '&[data-highlighted]': { bg: 'accent.subtle', color: 'accent.fg' },
    },
    empty: { px: '3', py: '2', fontSize: 'sm', color: 'fg.muted' },
    errorText: { fontSize: 'xs', color: 'danger' },
  },
});
