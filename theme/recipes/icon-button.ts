import { defineRecipe } from '@pandacss/dev';

/**
 * The one round button that holds only an icon: a row's "⋮" menu, a dialog's close, the feedback screenshot's
 * remove, a unit chip's cross. Its name comes from an aria-label (or title) on the element, never from the icon.
 */
export const iconButtonRecipe = defineRecipe({
  className: 'iconButton',
  base: {
    display: 'grid',
    placeItems: 'center',
    w: '8',
    h: '8',
    flexShrink: 0,
    borderRadius: 'full',
    color: 'fg.muted',
    cursor: 'pointer',
    _hover: { bg: 'bg.muted', color: 'fg.default' },
    // A menu's trigger stays marked while its menu is open.
    '&[data-state=open]': { bg: 'bg.muted', color: 'fg.default' },
    _focusVisible: { outline: '2px solid token(colors.accent.default)', outlineOffset: '1px' },
    _disabled: { opacity: 0.55, cursor: 'not-allowed' },
  },
  variants: {
    size: {
      md: {},
      // Inside a chip (a unit's remove cross).
      sm: { w: '6', h: '6' },
    },
    tone: {
      plain: {},
      // Over a picture (the captured screenshot): a dark disc that reads on any image, light or dark theme.
      overlay: {
        bg: 'rgba(0,0,0,0.6)',
        color: 'white',
        _hover: { bg: 'rgba(0,0,0,0.75)', color: 'white' },
      },
    },
  },
  defaultVariants: { size: 'md', tone: 'plain' },
});
