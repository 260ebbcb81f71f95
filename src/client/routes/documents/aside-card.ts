import { css } from '../../../../styled-system/css';

/** The cards beside a document on its Aperçu (balance, lifecycle, a quote's answer): the page's width, one look. */
export const asideCard = css({
  w: 'full',
  maxW: '820px',
  bg: 'bg.surface',
  borderRadius: 'card',
  borderWidth: '1px',
  borderColor: 'border.default',
  px: '4',
  py: '3',
  mb: '3',
  fontSize: 'sm',
});
