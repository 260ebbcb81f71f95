import { defineSlotRecipe } from '@pandacss/dev';

/**
 * Tooltips: Ark's (positioned by floating-ui) and the CSS-only one of the sign-in pages (`cssOnly` variant: a holder
 * that shows its tip below on hover and keyboard focus, without the positioning engine), one look for both.
 */
export const tooltipRecipe = defineSlotRecipe({
  className: 'tooltip',
  slots: ['holder', 'content'],
  base: {
    content: {
      bg: 'neutralSolid',
      color: 'neutralSolidFg',
      fontSize: 'xs',
      fontWeight: '500',
      px: '2.5',
      py: '1.5',
      borderRadius: 'md',
      boxShadow: 'overlay',
      zIndex: 'tooltip',
    },
  },
  variants: {
    cssOnly: {
      true: {
        holder: {
          position: 'relative',
          display: 'inline-flex',
          '& > [role=tooltip]': { opacity: 0, visibility: 'hidden', transition: 'opacity 0.1s, visibility 0.1s' },
          // The same 250 ms delay as the Ark tooltip; focus by keyboard shows it too.
          '&:hover > [role=tooltip], &:has(:focus-visible) > [role=tooltip]': {
            opacity: 1,
            visibility: 'visible',
            transitionDelay: '0.25s',
          },
        },
        content: {
          position: 'absolute',
          top: 'calc(100% + 8px)',
          left: '50%',
          transform: 'translateX(-50%)',
          whiteSpace: 'nowrap',
          pointerEvents: 'none',
        },
      },
    },
  },
});
