import { defineSlotRecipe } from '@pandacss/dev';

/** Ark's radio group: options as bordered chips side by side, or one under the other when each is a sentence. */
export const radioGroupRecipe = defineSlotRecipe({
  className: 'radioGroup',
  slots: ['root', 'label', 'items', 'item', 'itemControl', 'itemText'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5', fontSize: 'sm' },
    label: { fontWeight: '600' },
    items: { display: 'flex', flexWrap: 'wrap', gap: '2' },
    item: {
      display: 'inline-flex',
      alignItems: 'center',
      gap: '2',
      px: '3',
      h: '9',
      borderRadius: 'lg',
      borderWidth: '1px',
      borderColor: 'border.default',
      bg: 'bg.surface',
      cursor: 'pointer',
      userSelect: 'none',
      _hover: { borderColor: 'border.strong' },
      '&[data-state=checked]': { borderColor: 'accent.default', bg: 'accent.subtle', color: 'accent.fg', fontWeight: '600' },
      '&[data-focus-visible]': { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
      '&[data-disabled]': { cursor: 'default', opacity: 0.6 },
    },
    itemControl: {
      w: '4',
      h: '4',
      borderRadius: 'full',
      borderWidth: '1.5px',
      borderColor: 'border.strong',
      bg: 'bg.surface',
      flexShrink: 0,
      '&[data-state=checked]': { borderColor: 'accent.default', borderWidth: '5px' },
    },
  },
  variants: {
    orientation: {
      horizontal: {},
      vertical: { items: { flexDirection: 'column', alignItems: 'stretch' }, item: { h: 'auto', minH: '9', py: '1.5' } },
    },
    hideLabel: { true: { label: { srOnly: true } } },
  },
  defaultVariants: { orientation: 'horizontal' },
});
