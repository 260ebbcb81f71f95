import { css } from '../../../../styled-system/css';

/** One look for both tooltips: Ark's (tooltip.tsx) and the CSS one of the sign-in pages (css-tooltip.tsx). */
export const tooltipContent = css({
  bg: 'neutralSolid',
  color: 'neutralSolidFg',
  fontSize: 'xs',
  fontWeight: '500',
  px: '2.5',
  py: '1.5',
  borderRadius: 'md',
  boxShadow: 'overlay',
  zIndex: 'tooltip',
});
