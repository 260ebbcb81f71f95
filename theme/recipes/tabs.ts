import { defineSlotRecipe } from '@pandacss/dev';

/** Ark's tabs: an underlined row of triggers; a trigger whose panel needs fixing carries a red dot. */
export const tabsRecipe = defineSlotRecipe({
  className: 'tabs',
  slots: ['root', 'list', 'trigger', 'content', 'invalidHint'],
  base: {
    list: { display: 'flex', gap: '1', flexWrap: 'wrap', borderBottomWidth: '1px', borderColor: 'border.default', pb: '0' },
    trigger: {
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
      '&[data-invalid]::after': {
        content: '""',
        position: 'absolute',
        top: '1.5',
        right: '0.5',
        w: '1.5',
        h: '1.5',
        borderRadius: 'full',
        bg: 'danger',
      },
    },
    content: { pt: '4', _focusVisible: { outline: 'none' } },
    invalidHint: { srOnly: true },
  },
  variants: {
    size: {
      md: {},
      sm: { trigger: { px: '2.5', py: '1.5', fontSize: 'xs' } },
    },
  },
  defaultVariants: { size: 'md' },
});
